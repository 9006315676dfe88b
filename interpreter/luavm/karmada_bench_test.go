package luavm

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// karmadaStyle runs a hook the way Karmada's interpreter does, as the
// baseline of the lua-karmada-style benchmarks: it compiles the script on
// every call, and converts through JSON both ways. Each argument is
// marshalled, unmarshalled and built into Lua tables in full; each result
// is converted from its tables, marshalled and unmarshalled into its Go
// type. It runs on this engine's states and sandbox, so what it measures
// beyond lua-compile-per-call is the JSON round trip. (Inside
// kube.accuratePodRequirements the pod template is read from its tables
// directly, where Karmada goes through JSON once more.)
type karmadaStyle struct {
	e      *Engine
	name   string
	script string
}

// call runs op's function of the script with args and decodes its results
// into results, which are pointers (nil to skip one).
func (k karmadaStyle) call(ctx context.Context, op interpreter.Operation, args []any, refs *emptyRefs, results ...any) error {
	c, err := compile(k.script, false, true)
	if err != nil {
		return err
	}
	s := &Script{name: k.name, proto: c.proto}
	return k.e.session(ctx, s, op, nil, func(st *state) error {
		largs := make([]lua.LValue, len(args))
		for i, a := range args {
			if largs[i], err = jsonToLua(st.L, a); err != nil {
				return err
			}
		}
		res, err := st.call(op, len(results), largs...)
		if err != nil {
			return err
		}
		for i, into := range results {
			if err := jsonFromLua(st.lazy, res[i], refs, into); err != nil {
				return resultErr(op.ResultNames()[i], err)
			}
		}
		return nil
	})
}

// jsonToLua converts v to Lua through its JSON text.
func jsonToLua(L *lua.LState, v any) (lua.LValue, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		return nil, err
	}
	return toLua(L, decoded)
}

// jsonFromLua converts a Lua result through its JSON text into the value
// into points to.
func jsonFromLua(lazy *lazyTables, v lua.LValue, refs *emptyRefs, into any) error {
	if n, ok := into.(*int32); ok {
		var err error
		*n, err = replicaCount(v)
		return err
	}
	if v == lua.LNil {
		return nil
	}
	d := decoder{lazy: lazy, refs: refs}
	out, err := d.root(v, shapeObject)
	if err != nil {
		return err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if u, ok := into.(*unstructured.Unstructured); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, into)
}

func (k karmadaStyle) HookEnabled(schema.GroupVersionKind, interpreter.Operation) bool { return true }

// Interpret runs the operations of the benchmarks.
func (k karmadaStyle) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	resp := interpreter.Response{Operation: req.Operation}
	obj := req.Object
	var err error
	switch req.Operation {
	case interpreter.InterpretReplica:
		var requires interpreter.ReplicaRequirements
		err = k.call(ctx, req.Operation, []any{obj.Object}, nil, &resp.Replicas, &requires)
		resp.Requirements = &requires
	case interpreter.ReviseReplica:
		resp.Object = &unstructured.Unstructured{}
		err = k.call(ctx, req.Operation, []any{obj.Object, req.DesiredReplicas}, newEmptyRefs(obj), resp.Object)
	case interpreter.Retain:
		resp.Object = &unstructured.Unstructured{}
		err = k.call(ctx, req.Operation, []any{obj.Object, req.ObservedObject.Object}, newEmptyRefs(obj, req.ObservedObject), resp.Object)
	case interpreter.AggregateStatus:
		resp.Object = &unstructured.Unstructured{}
		err = k.call(ctx, req.Operation, []any{obj.Object, req.StatusItems}, nil, resp.Object)
	default:
		err = &interpreter.NoHookError{GVK: obj.GroupVersionKind(), Operation: req.Operation}
	}
	return resp, err
}

// TestKarmadaStyleBaseline checks that the baseline of the benchmarks
// computes what the engine does, so that it measures the same work.
func TestKarmadaStyleBaseline(t *testing.T) {
	obj := loadDeployment(t)
	observed := obj.DeepCopy()
	observed.SetLabels(map[string]string{"resourcetemplate.karmada.io/retain-replicas": "true"})
	unstructured.SetNestedField(observed.Object, int64(9), "spec", "replicas")
	items := benchStatusItems(t)
	ctx := context.Background()
	for _, bo := range benchOperations(obj, observed, items) {
		t.Run(bo.op.String(), func(t *testing.T) {
			e := New()
			s, err := e.Compile(bo.op.String(), bo.script)
			require.NoError(t, err)
			engine, baseline := e.Hook(s), interpreter.Typed{Interpreter: karmadaStyle{e: e, name: s.name, script: bo.script}}
			want, err := bo.result(ctx, engine)
			require.NoError(t, err)
			got, err := bo.result(ctx, baseline)
			require.NoError(t, err)
			assert.Equal(t, jsonText(t, want), jsonText(t, got))
		})
	}
}

func jsonText(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}
