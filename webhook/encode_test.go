package webhook

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// AppendResponseContext writes the bytes json.Marshal writes, for the
// answer of every operation and for failures.
func TestAppendResponseContext(t *testing.T) {
	patchType := PatchTypeJSONPatch
	replicas, healthy := int32(6), false
	requirements := &interpreter.ReplicaRequirements{
		NodeClaim: &interpreter.NodeClaim{
			HardNodeAffinity: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: "kubernetes.io/arch", Operator: corev1.NodeSelectorOpIn, Values: []string{"amd64", "arm64"}}}}}},
			NodeSelector: map[string]string{"kubernetes.io/os": "linux", "a<b>&c": "\u2028\u2029\x01\"\\\b\f\n\r\t\xff é"},
			Tolerations:  []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "web", Effect: corev1.TaintEffectNoSchedule}},
		},
		ResourceRequest: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("576Mi"), corev1.ResourceCPU: resource.MustParse("1500m"),
			"example.com/gpu": resource.MustParse("1")},
		Namespace:         "ns",
		PriorityClassName: "high",
	}
	tests := []struct {
		name string
		resp *ResourceInterpreterResponse
	}{
		{"InterpretReplica", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas, ReplicaRequirements: requirements}},
		{"InterpretReplica, requirements of the namespace only", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas,
			ReplicaRequirements: &interpreter.ReplicaRequirements{Namespace: "ns", NodeClaim: &interpreter.NodeClaim{}}}},
		{"a node selector alone", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas,
			ReplicaRequirements: &interpreter.ReplicaRequirements{NodeClaim: &interpreter.NodeClaim{NodeSelector: map[string]string{"a": "b"},
				Tolerations: requirements.NodeClaim.Tolerations}}}},
		{"node constraints", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas,
			ReplicaRequirements: &interpreter.ReplicaRequirements{NodeClaim: &interpreter.NodeClaim{
				HardNodeAffinity: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{
					{}, {MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"n<1>"}}}},
					{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "a", Operator: corev1.NodeSelectorOpExists}},
						MatchFields: []corev1.NodeSelectorRequirement{{Key: "b", Operator: corev1.NodeSelectorOpIn, Values: []string{}}}}}},
				Tolerations: []corev1.Toleration{{}, {Operator: corev1.TolerationOpExists}, {Key: "k", Effect: corev1.TaintEffectNoExecute, TolerationSeconds: new(int64(-30))},
					{Effect: corev1.TaintEffectPreferNoSchedule, TolerationSeconds: new(int64(0))}}}}}},
		{"no node selector terms", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas,
			ReplicaRequirements: &interpreter.ReplicaRequirements{NodeClaim: &interpreter.NodeClaim{HardNodeAffinity: &corev1.NodeSelector{}}}}},
		{"empty node selector terms", &ResourceInterpreterResponse{UID: "u-1", Successful: true, Replicas: &replicas,
			ReplicaRequirements: &interpreter.ReplicaRequirements{NodeClaim: &interpreter.NodeClaim{HardNodeAffinity: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{}}}}}},
		{"a patch", &ResourceInterpreterResponse{UID: "u-2", Successful: true, Patch: []byte(`[{"op":"replace","path":"/spec/replicas","value":3}]`), PatchType: &patchType}},
		{"no patch", &ResourceInterpreterResponse{UID: "u-2", Successful: true}},
		{"components", &ResourceInterpreterResponse{UID: "u-3", Successful: true, Components: []interpreter.Component{{Name: "leader", Replicas: 1}}}},
		{"dependencies", &ResourceInterpreterResponse{UID: "u-4", Successful: true, Dependencies: []interpreter.DependentObjectReference{
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"}}}},
		{"status", &ResourceInterpreterResponse{UID: "u-5", Successful: true, RawStatus: &runtime.RawExtension{Raw: []byte(` { "readyReplicas" : 2 } `)}}},
		{"health", &ResourceInterpreterResponse{UID: "u-6", Successful: true, Healthy: &healthy}},
		{"a failure", Failed("u-7", 504, `InterpretHealth: deadline of 10s exceeded <"quoted">`)},
		{"a failure without a message", Failed("", 500, "")},
		{"a failure without a code", Failed("u-8", 0, "m")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(NewResponseContext(tt.resp))
			require.NoError(t, err)
			got, err := AppendResponseContext([]byte("prefix"), tt.resp)
			require.NoError(t, err)
			assert.Equal(t, "prefix"+string(want), string(got))
		})
	}
}

// The encoder writes every field of the k8s.io/api types it writes
// itself: a field added by a new version of the module fails this until
// the encoder writes it too (and a case above shows it).
func TestEncodedTypes(t *testing.T) {
	for typ, fields := range map[reflect.Type]int{
		reflect.TypeFor[corev1.NodeSelector]():             1,
		reflect.TypeFor[corev1.NodeSelectorTerm]():         2,
		reflect.TypeFor[corev1.NodeSelectorRequirement]():  3,
		reflect.TypeFor[corev1.Toleration]():               5,
		reflect.TypeFor[interpreter.ReplicaRequirements](): 4,
		reflect.TypeFor[interpreter.NodeClaim]():           3,
		reflect.TypeFor[ResourceInterpreterResponse]():     11,
		reflect.TypeFor[RequestStatus]():                   2,
	} {
		assert.Equal(t, fields, typ.NumField(), "%s", typ)
	}
}
