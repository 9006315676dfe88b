package interpreter

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTyped checks that each typed call sends its operation's request and
// returns its operation's fields of the response.
func TestTyped(t *testing.T) {
	desired, observed := object("v1", "Pod"), object("v1", "Pod")
	items := []AggregatedStatusItem{{ClusterName: "member1"}}
	out := object("v1", "Pod")
	out.SetName("out")
	var got Request
	typed := Typed{Func(func(_ context.Context, req Request) (Response, error) {
		got = req
		return Response{
			Operation: req.Operation, Replicas: 3, Requirements: &ReplicaRequirements{Namespace: "ns"},
			Object: out, Components: []Component{{Name: "c"}}, Status: &runtime.RawExtension{Raw: []byte(`{}`)},
			Healthy: true, Dependencies: []DependentObjectReference{{APIVersion: "v1", Kind: "Secret"}},
		}, nil
	})}
	ctx := context.Background()
	tests := []struct {
		op   Operation
		call func() (any, error)
		want any
		req  Request
	}{
		{InterpretReplica, func() (any, error) { n, r, err := typed.GetReplicas(ctx, desired); return []any{n, r}, err },
			[]any{int32(3), &ReplicaRequirements{Namespace: "ns"}}, Request{Operation: InterpretReplica, Object: desired}},
		{ReviseReplica, func() (any, error) { return typed.ReviseReplica(ctx, desired, 5) },
			out, Request{Operation: ReviseReplica, Object: desired, DesiredReplicas: 5}},
		{InterpretComponent, func() (any, error) { return typed.GetComponents(ctx, desired) },
			[]Component{{Name: "c"}}, Request{Operation: InterpretComponent, Object: desired}},
		{Retain, func() (any, error) { return typed.Retain(ctx, desired, observed) },
			out, Request{Operation: Retain, Object: desired, ObservedObject: observed}},
		{AggregateStatus, func() (any, error) { return typed.AggregateStatus(ctx, desired, items) },
			out, Request{Operation: AggregateStatus, Object: desired, StatusItems: items}},
		{InterpretStatus, func() (any, error) { return typed.ReflectStatus(ctx, desired) },
			&runtime.RawExtension{Raw: []byte(`{}`)}, Request{Operation: InterpretStatus, Object: desired}},
		{InterpretHealth, func() (any, error) { return typed.InterpretHealth(ctx, desired) },
			true, Request{Operation: InterpretHealth, Object: desired}},
		{InterpretDependency, func() (any, error) { return typed.GetDependencies(ctx, desired) },
			[]DependentObjectReference{{APIVersion: "v1", Kind: "Secret"}}, Request{Operation: InterpretDependency, Object: desired}},
	}
	require.Len(t, tests, len(Operations()), "a test per operation")
	for _, tt := range tests {
		t.Run(tt.op.String(), func(t *testing.T) {
			res, err := tt.call()
			require.NoError(t, err)
			assert.Equal(t, tt.want, res)
			assert.Equal(t, tt.req, got)
		})
	}
}
