package webhook

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// TestWireShape pins the JSON field names of the protocol to Karmada's.
func TestWireShape(t *testing.T) {
	replicas, healthy := int32(3), true
	patchType := PatchTypeJSONPatch
	tests := []struct {
		name string
		v    any
		want string
	}{
		{
			name: "request",
			v: NewContext(&ResourceInterpreterRequest{
				UID:              "u-1",
				Kind:             metav1.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
				Name:             "web",
				Namespace:        "prod",
				Operation:        interpreter.Retain,
				Object:           runtime.RawExtension{Raw: []byte(`{"kind":"Deployment"}`)},
				ObservedObject:   &runtime.RawExtension{Raw: []byte(`{"kind":"Deployment","status":{}}`)},
				DesiredReplicas:  &replicas,
				AggregatedStatus: []interpreter.AggregatedStatusItem{{ClusterName: "member1", Applied: true, Health: interpreter.ResourceHealthy}},
			}),
			want: `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{
				"uid":"u-1","kind":{"group":"apps","version":"v1","kind":"Deployment"},"name":"web","namespace":"prod",
				"operation":"Retain","object":{"kind":"Deployment"},"observedObject":{"kind":"Deployment","status":{}},
				"replicas":3,"aggregatedStatus":[{"clusterName":"member1","applied":true,"health":"Healthy"}]}}`,
		},
		{
			name: "response",
			v: NewResponseContext(&ResourceInterpreterResponse{
				UID:                 "u-1",
				Successful:          true,
				Patch:               []byte(`[]`),
				PatchType:           &patchType,
				ReplicaRequirements: &interpreter.ReplicaRequirements{ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}},
				Replicas:            &replicas,
				Components:          []interpreter.Component{{Name: "main", Replicas: 1}},
				Dependencies:        []interpreter.DependentObjectReference{{APIVersion: "v1", Kind: "Secret", Name: "s"}},
				RawStatus:           &runtime.RawExtension{Raw: []byte(`{"ready":1}`)},
				Healthy:             &healthy,
			}),
			want: `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":{
				"uid":"u-1","successful":true,"patch":"W10=","patchType":"JSONPatch",
				"replicaRequirements":{"resourceRequest":{"cpu":"1"}},"replicas":3,
				"components":[{"name":"main","replicas":1}],"dependencies":[{"apiVersion":"v1","kind":"Secret","name":"s"}],
				"rawStatus":{"ready":1},"healthy":true}}`,
		},
		{
			name: "failed response",
			v:    NewResponseContext(Failed("u-2", 500, "boom")),
			want: `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":{
				"uid":"u-2","successful":false,"status":{"message":"boom","code":500}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
