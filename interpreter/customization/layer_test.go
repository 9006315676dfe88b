package customization

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

var widget = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}

func widgetObject(replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default"},
		"spec":     map[string]any{"replicas": replicas},
	}}
}

// widgetHooks defines GetReplicas (a-widget) and, twice, InterpretHealth:
// a-widget's answers, b-widget's is shadowed.
var widgetHooks = doc(
	"apiVersion: config.karmada.io/v1alpha1",
	"kind: ResourceInterpreterCustomization",
	"metadata: {name: b-widget}",
	"spec:",
	"  target: {apiVersion: example.io/v1, kind: Widget}",
	"  customizations:",
	"    healthInterpretation:",
	"      luaScript: |-",
	"        function InterpretHealth(obj) return false end",
	"    retention:",
	"      luaScript: |-",
	"        function Retain(desired, observed)",
	"          desired.spec.replicas = observed.spec.replicas",
	"          return desired",
	"        end",
	"---",
	"apiVersion: config.karmada.io/v1alpha1",
	"kind: ResourceInterpreterCustomization",
	"metadata: {name: a-widget}",
	"spec:",
	"  target: {apiVersion: example.io/v1, kind: Widget}",
	"  customizations:",
	"    replicaResource:",
	"      luaScript: |-",
	"        function GetReplicas(obj)",
	"          if obj.spec.replicas > 100 then",
	"            error(\"too many replicas\")",
	"          end",
	"          return obj.spec.replicas, nil",
	"        end",
	"    healthInterpretation:",
	"      luaScript: |-",
	"        function InterpretHealth(obj) return obj.spec.replicas > 0 end",
)

func widgetLayer(t *testing.T) *Layer {
	t.Helper()
	set, err := Parse("widget.yaml", []byte(widgetHooks))
	require.NoError(t, err)
	layer, err := NewLayer(luavm.New(), set)
	require.NoError(t, err)
	return layer
}

func TestLayerKinds(t *testing.T) {
	src := hooks("b-empty", "Gadget") + "---\n" + hooks("a-widget", "Widget", "retention") + "---\n" + hooks("c-widget", "Widget", "healthInterpretation")
	set, err := Parse("kinds.yaml", []byte(src))
	require.NoError(t, err)
	layer, err := NewLayer(luavm.New(), set)
	require.NoError(t, err)
	gadget := schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Gadget"}
	assert.Equal(t, []schema.GroupVersionKind{widget, gadget}, layer.Kinds(), "every target once, in name order, with or without operations")
}

func TestLayerHooks(t *testing.T) {
	layer := widgetLayer(t)
	enabled := map[interpreter.Operation]bool{
		interpreter.InterpretReplica: true, interpreter.InterpretHealth: true, interpreter.Retain: true,
	}
	for _, op := range interpreter.Operations() {
		t.Run(op.String(), func(t *testing.T) {
			assert.Equal(t, enabled[op], layer.HookEnabled(widget, op))
			other := widget
			other.Version = "v2"
			assert.False(t, layer.HookEnabled(other, op), "another version is another kind")
		})
	}
	c, s, ok := layer.Hook(widget, interpreter.InterpretHealth)
	require.True(t, ok)
	assert.Equal(t, "a-widget", c.Name, "the first in name order answers")
	assert.Equal(t, "a-widget/healthInterpretation", s.Name)
}

func TestLayerCalls(t *testing.T) {
	layer := widgetLayer(t)
	ctx := context.Background()

	n, req, err := interpreter.Typed{Interpreter: layer}.GetReplicas(ctx, widgetObject(3))
	require.NoError(t, err)
	assert.Equal(t, int32(3), n)
	assert.Nil(t, req)

	healthy, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, widgetObject(0))
	require.NoError(t, err)
	assert.False(t, healthy)
	healthy, err = interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, widgetObject(2))
	require.NoError(t, err)
	assert.True(t, healthy, "a-widget's script answers, not b-widget's")

	retained, err := interpreter.Typed{Interpreter: layer}.Retain(ctx, widgetObject(1), widgetObject(7))
	require.NoError(t, err)
	assert.Equal(t, int64(7), retained.Object["spec"].(map[string]any)["replicas"])

	_, err = interpreter.Typed{Interpreter: layer}.ReviseReplica(ctx, widgetObject(1), 2)
	require.ErrorIs(t, err, interpreter.ErrNoHook)
	assert.EqualError(t, err, "ReviseReplica hook for example.io/v1, Kind=Widget not found")
}

func TestLayerScriptFailure(t *testing.T) {
	layer := widgetLayer(t)
	_, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), widgetObject(101))
	require.Error(t, err)
	var se *interpreter.ScriptError
	require.True(t, errors.As(err, &se), "the engine's error stays reachable: %v", err)
	assert.Equal(t, 3, se.Line)
	assert.Equal(t, interpreter.InterpretReplica, se.Operation)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, 27, e.Line, "Lua line 3 of a script starting on line 25")
	assert.EqualError(t, err, `widget.yaml:27: document 2 "a-widget": spec.customizations.replicaResource.luaScript: Lua line 3: too many replicas`)
}

func TestNewLayerErrors(t *testing.T) {
	rule := func(key, script string) string {
		return doc(
			"apiVersion: config.karmada.io/v1alpha1",
			"kind: ResourceInterpreterCustomization",
			"metadata: {name: bad}",
			"spec:",
			"  target: {apiVersion: example.io/v1, kind: Widget}",
			"  customizations:",
			"    "+key+":",
			"      luaScript: |-",
		) + script
	}
	tests := []struct {
		name, src, want string
	}{
		{
			name: "syntax error",
			src:  rule("replicaResource", "        function GetReplicas(obj)\n          return obj.spec.replicas,\n        end\n"),
			want: `f.yaml:11: document 1 "bad": spec.customizations.replicaResource.luaScript: Lua line 3: syntax error near "end": syntax error`,
		},
		{
			name: "function missing",
			src:  rule("healthInterpretation", "        function GetReplicas(obj) return 1 end\n"),
			want: `f.yaml:9: document 1 "bad": spec.customizations.healthInterpretation.luaScript: the script does not define the global function InterpretHealth`,
		},
		{
			name: "run-time error in the chunk",
			src:  rule("retention", "        local x = nil\n        x.y = 1\n        function Retain(d, o) return d end\n"),
			want: `f.yaml:10: document 1 "bad": spec.customizations.retention.luaScript: Lua line 2: attempt to index 'x' (a nil value)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Parse("f.yaml", []byte(tt.src))
			require.NoError(t, err)
			_, err = NewLayer(luavm.New(), set)
			require.Error(t, err)
			var list ErrorList
			require.ErrorAs(t, err, &list)
			require.Len(t, list, 1)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestNewLayerRefusesAnInvalidSet(t *testing.T) {
	set, err := Parse("f.yaml", []byte("apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\n"))
	require.Error(t, err)
	_, err = NewLayer(luavm.New(), set)
	assert.Equal(t, set.Err(), err)
}

func BenchmarkLayerHookEnabled(b *testing.B) {
	set, err := Parse("widget.yaml", []byte(widgetHooks))
	require.NoError(b, err)
	layer, err := NewLayer(luavm.New(), set)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if !layer.HookEnabled(widget, interpreter.InterpretHealth) {
			b.Fatal("no hook")
		}
	}
}

// BenchmarkLayerGetReplicas compares a GetReplicas call through a
// Registry's customization layer with the same script called on the
// engine directly: the layer's lookup is all the difference.
func BenchmarkLayerGetReplicas(b *testing.B) {
	set, err := Load("../../testdata/examples/customization.yaml")
	require.NoError(b, err)
	engine := luavm.New()
	layer, err := NewLayer(engine, set)
	require.NoError(b, err)
	reg := interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer)
	obj := exampleWorkload(b)
	direct := layer.hooks[hookKey{obj.GroupVersionKind(), interpreter.InterpretReplica}][0].program

	b.Run("registry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := reg.GetReplicas(context.Background(), obj); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := engine.Hook(direct).GetReplicas(context.Background(), obj); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func exampleWorkload(tb testing.TB) *unstructured.Unstructured {
	tb.Helper()
	data, err := os.ReadFile("../../testdata/examples/workload.yaml")
	require.NoError(tb, err)
	js, err := yaml.YAMLToJSON(data)
	require.NoError(tb, err)
	obj := &unstructured.Unstructured{}
	require.NoError(tb, obj.UnmarshalJSON(js))
	return obj
}
