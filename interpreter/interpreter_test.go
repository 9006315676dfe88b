package interpreter

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// recording returns middleware that appends name to calls around each call.
func recording(name string, calls *[]string) Middleware {
	return func(next Interpreter) Interpreter {
		return Decorate(next, func(ctx context.Context, req Request) (Response, error) {
			*calls = append(*calls, name+" "+req.Operation.String())
			return next.Interpret(ctx, req)
		})
	}
}

func TestChain(t *testing.T) {
	var calls []string
	inner := replicaLayer{kinds: map[string]bool{"Deployment": true}, replicas: 4}
	in := Chain(inner, recording("outer", &calls), recording("inner", &calls))

	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	assert.True(t, in.HookEnabled(deployment, InterpretReplica), "the hooks are the wrapped interpreter's")
	assert.False(t, in.HookEnabled(deployment, InterpretHealth))

	n, _, err := Typed{in}.GetReplicas(context.Background(), object("apps/v1", "Deployment"))
	require.NoError(t, err)
	assert.Equal(t, int32(4), n)
	assert.Equal(t, []string{"outer InterpretReplica", "inner InterpretReplica"}, calls)
}

func TestFunc(t *testing.T) {
	f := Func(func(_ context.Context, req Request) (Response, error) {
		return Response{Operation: req.Operation, Healthy: req.Object.GetName() == "ok"}, nil
	})
	assert.True(t, f.HookEnabled(schema.GroupVersionKind{Kind: "Anything"}, InterpretDependency))
	obj := object("v1", "Pod")
	obj.SetName("ok")
	healthy, err := Typed{f}.InterpretHealth(context.Background(), obj)
	require.NoError(t, err)
	assert.True(t, healthy)
}
