package admission_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/admission"
)

// ric is a ResourceInterpreterCustomization of example.io/v1 Widget named
// name, with customizations (YAML, indented under spec.customizations).
func ric(name, customizations string) string {
	return `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: ` + name + `
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
` + customizations
}

const healthRule = `    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return true
        end
`

// request is a CREATE request of the object in YAML.
func request(t *testing.T, text string) *admissionv1.AdmissionRequest {
	t.Helper()
	raw, err := yaml.YAMLToJSON([]byte(text))
	require.NoError(t, err)
	return &admissionv1.AdmissionRequest{
		UID:       "uid-1",
		Kind:      metav1.GroupVersionKind{Group: "config.karmada.io", Version: "v1alpha1", Kind: "ResourceInterpreterCustomization"},
		Operation: admissionv1.Create,
		Object:    runtime.RawExtension{Raw: raw},
	}
}

func TestReview(t *testing.T) {
	existing, err := customization.Parse("existing.yaml", []byte(ric("first", healthRule)))
	require.NoError(t, err)
	v, err := admission.New(luavm.New(), admission.WithExisting(func() []*customization.Customization { return existing.Customizations }))
	require.NoError(t, err)
	tests := []struct {
		name    string
		object  string
		denied  string // the message; "" when allowed
		mutates func(*admissionv1.AdmissionRequest)
	}{{
		name:   "a good customization is allowed",
		object: ric("good", "    replicaResource:\n      luaScript: |\n        function GetReplicas(obj) return 1, nil end\n"),
	}, {
		name:   "an update of the customization that defines the operation is allowed",
		object: ric("first", healthRule),
	}, {
		name:   "a script that does not compile is denied",
		object: ric("broken", "    replicaResource:\n      luaScript: |\n        function GetReplicas(obj)\n          return 1 +\n        end\n"),
		denied: `resourceinterpretercustomization/broken:11: document 1 "broken": spec.customizations.replicaResource.luaScript: Lua line 3: syntax error near "end": syntax error`,
	}, {
		name:   "a script without its function is denied",
		object: ric("nofunc", "    replicaResource:\n      luaScript: |\n        function GetReplica(obj) return 1 end\n"),
		denied: `resourceinterpretercustomization/nofunc:9: document 1 "nofunc": spec.customizations.replicaResource.luaScript: the script does not define the global function GetReplicas; it defines GetReplica: did you mean GetReplicas?`,
	}, {
		name:   "an unknown key is denied with a suggestion",
		object: ric("typo", "    statusReflexion:\n      luaScript: |\n        function ReflectStatus(obj) return {} end\n"),
		denied: `resourceinterpretercustomization/typo:7: document 1 "typo": spec.customizations.statusReflexion: unknown field, did you mean "statusReflection"?`,
	}, {
		name:   "a second customization of an operation for the target is denied",
		object: ric("second", healthRule),
		denied: `resourceinterpretercustomization/second:1: document 1 "second": spec.customizations.healthInterpretation: already defined for example.io/v1, Kind=Widget by customization "first"; a kind's operation is defined by one customization only`,
	}, {
		name:    "a deletion is allowed",
		object:  ric("second", healthRule),
		mutates: func(r *admissionv1.AdmissionRequest) { r.Operation = admissionv1.Delete },
	}, {
		name:    "another kind is denied",
		object:  ric("other", healthRule),
		mutates: func(r *admissionv1.AdmissionRequest) { r.Kind.Kind = "ConfigMap" },
		denied:  "luainterp validates ResourceInterpreterCustomization only, not ConfigMap: check the rules of the ValidatingWebhookConfiguration",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request(t, tt.object)
			if tt.mutates != nil {
				tt.mutates(req)
			}
			resp := v.Review(context.Background(), req)
			assert.Equal(t, req.UID, resp.UID)
			if tt.denied == "" {
				assert.True(t, resp.Allowed, "denied: %+v", resp.Result)
				return
			}
			require.False(t, resp.Allowed)
			assert.Equal(t, tt.denied, resp.Result.Message)
			assert.Equal(t, metav1.StatusReasonInvalid, resp.Result.Reason)
		})
	}
}

func TestReviewJSON(t *testing.T) {
	review := admissionv1.AdmissionReview{Request: request(t, ric("good", healthRule))}
	data, err := json.Marshal(review)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"operation":"CREATE"`)
}
