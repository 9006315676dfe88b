package builtin_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// TestReflectStatusJSON checks the exact bytes of reflected statuses: key
// order, omitted and always-written fields (docs/builtin.md §2.9), which the
// semantic comparison of test cases does not see.
func TestReflectStatusJSON(t *testing.T) {
	tests := []struct {
		name   string
		object string
		want   string
	}{{
		name: "Deployment (spec example)",
		object: `
apiVersion: apps/v1
kind: Deployment
metadata: {generation: 4, annotations: {resourcetemplate.karmada.io/generation: "7"}}
status: {observedGeneration: 4, replicas: 2, readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2,
         conditions: [{type: Available, status: "True"}]}`,
		want: `{"generation":4,"resourceTemplateGeneration":7,"observedGeneration":4,"replicas":2,` +
			`"updatedReplicas":2,"readyReplicas":2,"availableReplicas":2}`,
	}, {
		name: "ReplicaSet",
		object: `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {generation: 2, annotations: {resourcetemplate.karmada.io/generation: "3"}}
status: {observedGeneration: 2, availableReplicas: 1, readyReplicas: 1, fullyLabeledReplicas: 1}`,
		want: `{"generation":2,"resourceTemplateGeneration":3,"replicas":0,"readyReplicas":1,"availableReplicas":1,"observedGeneration":2}`,
	}, {
		name: "StatefulSet",
		object: `
apiVersion: apps/v1
kind: StatefulSet
metadata: {generation: 2, annotations: {resourcetemplate.karmada.io/generation: "3"}}
status: {observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 1, updatedReplicas: 2}`,
		want: `{"generation":2,"resourceTemplateGeneration":3,"replicas":3,"readyReplicas":3,"currentReplicas":1,` +
			`"updatedReplicas":2,"availableReplicas":0}`,
	}, {
		name: "DaemonSet",
		object: `
apiVersion: apps/v1
kind: DaemonSet
metadata: {annotations: {resourcetemplate.karmada.io/generation: "1"}}
status: {numberAvailable: 1, observedGeneration: 5, numberUnavailable: 2, updatedNumberScheduled: 3}`,
		want: `{"resourceTemplateGeneration":1,"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,` +
			`"numberReady":0,"observedGeneration":5,"updatedNumberScheduled":3,"numberAvailable":1,"numberUnavailable":2}`,
	}, {
		name: "Job",
		object: `
apiVersion: batch/v1
kind: Job
status: {failed: 1, active: 2, startTime: "2024-01-01T00:00:00Z", conditions: [{type: Suspended, status: "False"}]}`,
		want: `{"conditions":[{"type":"Suspended","status":"False","lastProbeTime":null,"lastTransitionTime":null}],` +
			`"startTime":"2024-01-01T00:00:00Z","active":2,"failed":1}`,
	}, {
		name: "Service",
		object: `
apiVersion: v1
kind: Service
spec: {type: LoadBalancer}
status: {loadBalancer: {ingress: [{ports: [{error: e, protocol: TCP, port: 80}], ipMode: VIP, hostname: h, ip: 1.1.1.1}]}}`,
		want: `{"loadBalancer":{"ingress":[{"ip":"1.1.1.1","hostname":"h","ipMode":"VIP","ports":[{"port":80,"protocol":"TCP","error":"e"}]}]}}`,
	}, {
		name: "PodDisruptionBudget",
		object: `
apiVersion: policy/v1
kind: PodDisruptionBudget
status: {expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptionsAllowed: 1, disruptedPods: {zk-1: "2025-01-10T12:00:00Z"}}`,
		want: `{"disruptedPods":{"zk-1":"2025-01-10T12:00:00Z"},"disruptionsAllowed":1,"currentHealthy":3,"desiredHealthy":2,"expectedPods":3}`,
	}, {
		name: "HorizontalPodAutoscaler (spec example)",
		object: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
status: {currentReplicas: 2, desiredReplicas: 3, lastScaleTime: "2024-01-01T00:00:00Z"}`,
		want: `{"currentReplicas":2,"desiredReplicas":3,"currentMetrics":null}`,
	}, {
		name: "whole status, keys sorted at every level (spec example)",
		object: `
apiVersion: example.io/v1
kind: Widget
status: {z: 1, a: {d: 1, b: 2}}`,
		want: `{"a":{"b":2,"d":1},"z":1}`,
	}, {
		name: "whole status, empty",
		object: `
apiVersion: v1
kind: PersistentVolumeClaim
status: {}`,
		want: `{}`,
	}}
	layer := builtin.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := interpreter.Typed{Interpreter: layer}.ReflectStatus(context.Background(), parseObject(t, tt.name, []byte(tt.object)))
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, tt.want, string(got.Raw))
		})
	}
}
