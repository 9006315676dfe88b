package status_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// deployment is the web template with generation 1 and the given status
// (none when nil).
func deployment(st map[string]any) *unstructured.Unstructured {
	obj := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "generation": int64(1)},
		"spec":     map[string]any{"replicas": int64(4)},
	}
	if st != nil {
		obj["status"] = st
	}
	return &unstructured.Unstructured{Object: obj}
}

// memberStatus is what a member reflects of web with ready of 2 replicas ready.
func memberStatus(ready int) string {
	return fmt.Sprintf(`{"generation":1,"observedGeneration":1,"replicas":2,"readyReplicas":%d,"updatedReplicas":2,"availableReplicas":%d,"resourceTemplateGeneration":1}`, ready, ready)
}

func TestLoopPass(t *testing.T) {
	ctx := context.Background()
	loop := status.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	works := []api.Work{work("m2", "True", "Healthy", memberStatus(2)), work("m1", "True", "Unhealthy", memberStatus(1))}
	in := status.Input{Binding: "shop/web-deployment", Resource: web, Works: works, Template: deployment(nil)}

	first, err := loop.Pass(ctx, in)
	require.NoError(t, err)
	assert.True(t, first.StatusChanged, "no status stored yet")
	assert.Equal(t, []string{"m1", "m2"}, []string{first.AggregatedStatus[0].ClusterName, first.AggregatedStatus[1].ClusterName})
	assert.True(t, first.Aggregated)
	assert.True(t, first.TemplateChanged)
	assert.Equal(t, map[string]any{"replicas": int64(4), "readyReplicas": int64(3), "updatedReplicas": int64(4),
		"availableReplicas": int64(3), "observedGeneration": int64(1)}, first.TemplateStatus)
	written := first.Template(in.Template)
	assert.Nil(t, in.Template.Object["status"], "the template given is not modified")
	assert.Equal(t, first.TemplateStatus, written.Object["status"])

	t.Run("once written, nothing changes", func(t *testing.T) {
		again := in
		again.Current, again.Template = first.AggregatedStatus, written
		second, err := loop.Pass(ctx, again)
		require.NoError(t, err)
		assert.False(t, second.StatusChanged)
		assert.True(t, second.Aggregated)
		assert.False(t, second.TemplateChanged)
	})
	t.Run("a member's new status changes both", func(t *testing.T) {
		next := in
		next.Current, next.Template = first.AggregatedStatus, written
		next.Works = []api.Work{work("m2", "True", "Healthy", memberStatus(2)), work("m1", "True", "Healthy", memberStatus(2))}
		third, err := loop.Pass(ctx, next)
		require.NoError(t, err)
		assert.True(t, third.StatusChanged)
		assert.True(t, third.TemplateChanged)
		assert.Equal(t, int64(4), third.TemplateStatus.(map[string]any)["readyReplicas"])
	})
	t.Run("no template: the binding's half only", func(t *testing.T) {
		only := in
		only.Template = nil
		res, err := loop.Pass(ctx, only)
		require.NoError(t, err)
		assert.True(t, res.StatusChanged)
		assert.False(t, res.Aggregated)
		assert.False(t, res.TemplateChanged)
	})
	t.Run("a kind without an AggregateStatus hook is left alone", func(t *testing.T) {
		cm := in
		cm.Template = &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "web", "namespace": "shop"}, "status": map[string]any{"kept": true}}}
		res, err := loop.Pass(ctx, cm)
		require.NoError(t, err)
		assert.False(t, res.Aggregated)
		assert.False(t, res.TemplateChanged)
		assert.Equal(t, map[string]any{"kept": true}, res.TemplateStatus)
		assert.Equal(t, cm.Template.Object, res.Template(cm.Template).Object)
	})
	t.Run("a Work error fails the pass", func(t *testing.T) {
		bad := in
		bad.Works = append([]api.Work{}, works...)
		bad.Works[1].Namespace = "shop"
		res, err := loop.Pass(ctx, bad)
		assert.ErrorIs(t, err, status.ErrNotExecutionSpace)
		assert.Equal(t, status.Result{}, res)
	})
}

// TestLoopPassGivesStoredItemsWhenUnchanged: the hook gets the stored items
// when the assembled ones are equal to them, as Karmada hands the hook the
// binding's status as it then holds it, and the new ones otherwise.
func TestLoopPassGivesStoredItemsWhenUnchanged(t *testing.T) {
	var given []interpreter.AggregatedStatusItem
	spy := hooks{enabled: true, fn: func(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
		given = req.StatusItems
		return interpreter.Response{Operation: req.Operation, Object: req.Object}, nil
	}}
	works := []api.Work{work("m1", "True", "Healthy", `{"a":1,"b":2}`)}
	stored := []interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Healthy", Status: raw(`{"b": 2, "a": 1}`)}}
	res, err := status.New(spy).Pass(context.Background(), status.Input{Resource: web, Works: works, Current: stored, Template: deployment(nil)})
	require.NoError(t, err)
	assert.False(t, res.StatusChanged)
	assert.Equal(t, stored, given)

	stored[0].Health = "Unhealthy"
	res, err = status.New(spy).Pass(context.Background(), status.Input{Resource: web, Works: works, Current: stored, Template: deployment(nil)})
	require.NoError(t, err)
	assert.True(t, res.StatusChanged)
	assert.Equal(t, res.AggregatedStatus, given)
	assert.False(t, res.TemplateChanged, "the hook returned the template as it is")
}

// widgetCustomization aggregates a Widget's status.ready from its members'
// in Lua, reading each member's status.ready, status.deep down to its end,
// and the length of status.pad.
const widgetCustomization = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    statusAggregation:
      luaScript: |
        function AggregateStatus(desired, statusItems)
          local ready = 0
          for _, item in ipairs(statusItems) do
            if item.status ~= nil then
              ready = ready + (item.status.ready or 0)
              local d = item.status.deep
              while type(d) == "table" do d = d.a end
              if item.status.pad ~= nil then ready = ready + #item.status.pad end
            end
          end
          desired.status = {ready = ready}
          return desired
        end
`

// widgetLoop runs the widget customization on an engine with an 8 MiB
// memory budget per call.
func widgetLoop(t *testing.T) *status.Loop {
	t.Helper()
	set, err := customization.Parse("widget.yaml", []byte(widgetCustomization))
	require.NoError(t, err)
	// A minute's deadline: the 32 MiB case must meet the memory budget, not
	// the deadline, even under -race on a loaded machine.
	layer, err := customization.NewLayer(luavm.New(luavm.WithMemoryBudget(8<<20), luavm.WithTimeout(time.Minute)), set)
	require.NoError(t, err)
	return status.New(interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer))
}

func widgetWork(cluster, st string) api.Work {
	w := work(cluster, "True", "Healthy", st)
	w.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"shop"}}`)
	w.Status.ManifestStatuses[0].Identifier = api.ResourceIdentifier{Group: "example.io", Version: "v1", Kind: "Widget", Namespace: "shop", Name: "w"}
	return w
}

// TestLoopPassLua: a Lua statusAggregation runs through the same pass, and
// a hostile member status fails it within the engine's limits, with an
// error naming the binding and the template.
func TestLoopPassLua(t *testing.T) {
	loop := widgetLoop(t)
	ref := api.ObjectReference{APIVersion: "example.io/v1", Kind: "Widget", Namespace: "shop", Name: "w"}
	tmpl := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "shop"}, "status": map[string]any{"ready": int64(3)}}}
	deep := `{"deep":` + strings.Repeat(`{"a":`, 5_000) + "1" + strings.Repeat("}", 5_000) + "}"
	huge := `{"ready":1,"pad":"` + strings.Repeat("x", 32<<20) + `"}`
	tests := []struct {
		name    string
		works   []api.Work
		changed bool
		errMsg  string
	}{
		{"unchanged", []api.Work{widgetWork("m1", `{"ready":1}`), widgetWork("m2", `{"ready":2}`)}, false, ""},
		{"changed", []api.Work{widgetWork("m1", `{"ready":1}`)}, true, ""},
		{"5,000 levels deep, read to the end", []api.Work{widgetWork("m1", deep)}, true, ""},
		{"too large", []api.Work{widgetWork("m1", huge)}, false, "memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := loop.Pass(context.Background(), status.Input{Binding: "shop/w-widget", Resource: ref, Works: tt.works, Template: tmpl})
			if tt.errMsg != "" {
				var te *status.TemplateError
				require.True(t, errors.As(err, &te), "%v", err)
				assert.Contains(t, err.Error(), "binding shop/w-widget: aggregate status of Widget shop/w: ")
				assert.Contains(t, err.Error(), tt.errMsg)
				assert.True(t, res.StatusChanged, "the binding's half is kept")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.changed, res.TemplateChanged)
		})
	}
}

// TestLoopPassHostileStatusBuiltin: the built-in Deployment handler decodes
// members' statuses with encoding/json, whose nesting limit (10,000)
// refuses a deeper status with an error naming the binding; a deep status
// within it, under a field the handler does not read, is skipped.
func TestLoopPassHostileStatusBuiltin(t *testing.T) {
	loop := status.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	nested := func(levels int) string {
		return `{"replicas":2,"junk":` + strings.Repeat(`{"a":`, levels) + "1" + strings.Repeat("}", levels) + "}"
	}
	t.Run("9,000 levels", func(t *testing.T) {
		res, err := loop.Pass(context.Background(), status.Input{Binding: "shop/web-deployment", Resource: web,
			Works: []api.Work{work("m1", "True", "Healthy", nested(9_000))}, Template: deployment(nil)})
		require.NoError(t, err)
		assert.Equal(t, int64(2), res.TemplateStatus.(map[string]any)["replicas"])
	})
	t.Run("20,000 levels", func(t *testing.T) {
		_, err := loop.Pass(context.Background(), status.Input{Binding: "shop/web-deployment", Resource: web,
			Works: []api.Work{work("m1", "True", "Healthy", nested(20_000))}, Template: deployment(nil)})
		var te *status.TemplateError
		require.True(t, errors.As(err, &te), "%v", err)
		assert.Contains(t, err.Error(), "binding shop/web-deployment: aggregate status of Deployment shop/web: ")
		assert.Contains(t, err.Error(), "exceeded max depth")
	})
}
