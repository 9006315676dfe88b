package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// accurateRequirementsScript is the customization a Karmada user writes for
// a Deployment-like CRD: the replica count and kube.accuratePodRequirements.
const accurateRequirementsScript = `
local kube = require("kube")
function GetReplicas(obj)
  local replica = obj.spec.replicas or 0
  return replica, kube.accuratePodRequirements(obj.spec.template)
end
`

// TestGetReplicasMatchesLua checks, for random Deployments, that the
// built-in GetReplicas answers exactly as a Lua customization calling
// kube.accuratePodRequirements on the same object.
func TestGetReplicasMatchesLua(t *testing.T) {
	ctx := context.Background()
	engine := luavm.New()
	script, err := engine.Compile("accurate-requirements", accurateRequirementsScript)
	require.NoError(t, err)
	layer := builtin.New()
	rng := rand.New(rand.NewPCG(20260821, 3))
	for i := range 300 {
		deploy := randomDeployment(rng)
		wantReplicas, wantReq, err := interpreter.Typed{Interpreter: layer}.GetReplicas(ctx, deploy)
		require.NoError(t, err)
		gotReplicas, gotReq, err := engine.Hook(script).GetReplicas(ctx, deploy)
		require.NoError(t, err)
		if wantReplicas != gotReplicas || !sameRequirements(wantReq, gotReq) {
			want, _ := json.Marshal(wantReq)
			got, _ := json.Marshal(gotReq)
			input, _ := json.MarshalIndent(deploy.Object, "", "  ")
			t.Fatalf("deployment %d: built-in gives %d %s, Lua gives %d %s\n%s", i, wantReplicas, want, gotReplicas, got, input)
		}
	}
}

// sameRequirements compares requirements as Karmada would: node claims
// field for field, quantities by value (a Lua result is re-parsed, so
// 2358000 may come back as 2358k).
func sameRequirements(a, b *interpreter.ReplicaRequirements) bool {
	if a == nil || b == nil {
		return a == b
	}
	if len(a.ResourceRequest) != len(b.ResourceRequest) {
		return false
	}
	for name, q := range a.ResourceRequest {
		other, ok := b.ResourceRequest[name]
		if !ok || q.Cmp(other) != 0 {
			return false
		}
	}
	return equality.Semantic.DeepEqual(a.NodeClaim, b.NodeClaim) &&
		a.Namespace == b.Namespace && a.PriorityClassName == b.PriorityClassName
}

// randomDeployment builds a Deployment with random containers, resources
// in every quantity notation, overhead and node constraints.
func randomDeployment(rng *rand.Rand) *unstructured.Unstructured {
	podSpec := map[string]any{}
	for _, group := range []struct {
		key string
		max int
	}{{"containers", 3}, {"initContainers", 2}} {
		if n := rng.IntN(group.max + 1); n > 0 {
			containers := make([]any, n)
			for i := range containers {
				containers[i] = map[string]any{
					"name": fmt.Sprintf("c%d", i), "image": "registry.local/app:1",
					"resources": randomResources(rng),
				}
			}
			podSpec[group.key] = containers
		}
	}
	if rng.IntN(4) == 0 {
		podSpec["overhead"] = randomResourceList(rng)
	}
	if rng.IntN(3) == 0 {
		podSpec["nodeSelector"] = map[string]any{"disk": pick(rng, "ssd", "hdd"), "zone": pick(rng, "a", "b")}
	}
	if rng.IntN(3) == 0 {
		podSpec["tolerations"] = []any{
			map[string]any{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
			map[string]any{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(rng.IntN(600) + 1)},
		}[:rng.IntN(2)+1]
	}
	if rng.IntN(3) == 0 {
		podSpec["affinity"] = map[string]any{"nodeAffinity": map[string]any{
			"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": []any{
				map[string]any{"matchExpressions": []any{map[string]any{
					"key": "kubernetes.io/arch", "operator": "In", "values": []any{"amd64", pick(rng, "arm64", "s390x")},
				}}},
			}},
		}}
	}
	spec := map[string]any{"template": map[string]any{"spec": podSpec}}
	if rng.IntN(5) > 0 {
		spec["replicas"] = int64(rng.IntN(20))
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "random", "namespace": "prop"},
		"spec":     spec,
	}}
}

func randomResources(rng *rand.Rand) map[string]any {
	resources := map[string]any{}
	if rng.IntN(4) > 0 {
		resources["requests"] = randomResourceList(rng)
	}
	if rng.IntN(2) == 0 {
		resources["limits"] = randomResourceList(rng)
	}
	return resources
}

// resourceNames mixes accounted names, scalar resources and ignored names.
var resourceNames = []string{
	"cpu", "memory", "ephemeral-storage", "pods", "nvidia.com/gpu", "hugepages-2Mi",
	"attachable-volumes-csi", "storage", "requests.example.com/x",
}

func randomResourceList(rng *rand.Rand) map[string]any {
	list := map[string]any{}
	for range rng.IntN(4) + 1 {
		list[pick(rng, resourceNames...)] = randomQuantity(rng)
	}
	return list
}

// randomQuantity returns a quantity in one of the notations a manifest
// uses, including whole numbers and fractions that round up.
func randomQuantity(rng *rand.Rand) any {
	n := rng.IntN(4000)
	switch rng.IntN(9) {
	case 0:
		return int64(n % 16)
	case 1:
		return fmt.Sprintf("%dm", n)
	case 2:
		return fmt.Sprintf("%dMi", n)
	case 3:
		return fmt.Sprintf("%d.%d", n%8, rng.IntN(1000))
	case 4:
		return fmt.Sprintf("%dk", n)
	case 5:
		return fmt.Sprintf("%dGi", n%64)
	case 6:
		return fmt.Sprintf("%du", n*7)
	case 7:
		return fmt.Sprintf("%dG", n%32)
	}
	return fmt.Sprint(n)
}

func pick(rng *rand.Rand, options ...string) string { return options[rng.IntN(len(options))] }
