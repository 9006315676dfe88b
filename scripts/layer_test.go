package scripts_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
)

var cloneSet = schema.GroupVersionKind{Group: "apps.kruise.io", Version: "v1alpha1", Kind: "CloneSet"}

// TestBundledCustomizations checks every bundled customization: it
// compiles, targets the kind of its folder, has a name no other uses, and
// no two of one kind define the same operation.
func TestBundledCustomizations(t *testing.T) {
	layer := scripts.NewLayer(luavm.New())
	require.NoError(t, layer.Load())
	names := map[string]string{}
	for _, gvk := range layer.Kinds() {
		t.Run(gvk.String(), func(t *testing.T) {
			file := filepath.ToSlash(filepath.Join(groupDir(gvk), gvk.Version, gvk.Kind, "customizations.yaml"))
			data, err := fs.ReadFile(scripts.FS, file)
			require.NoError(t, err)
			set, err := customization.Parse(file, data)
			require.NoError(t, err)
			require.NotEmpty(t, set.Customizations)
			assert.Empty(t, set.Warnings, "two customizations define the same operation")
			for _, c := range set.Customizations {
				assert.Equal(t, gvk, c.Target)
				assert.NotContains(t, names, c.Name, "name already used by %s", names[c.Name])
				names[c.Name] = gvk.String()
				for _, op := range c.Operations() {
					got, _, ok := layer.Hook(gvk, op)
					require.True(t, ok, "%s: no hook", op)
					assert.Equal(t, c.Name, got.Name)
					assert.True(t, layer.HookEnabled(gvk, op))
				}
			}
		})
	}
}

func groupDir(gvk schema.GroupVersionKind) string {
	if gvk.Group == "" {
		return "core"
	}
	return gvk.Group
}

// TestEmbedded checks that FS holds exactly the suite files of this
// folder: go:embed leaves out names starting with "." or "_", which the
// suites would still run from disk.
func TestEmbedded(t *testing.T) {
	var onDisk, embedded []string
	require.NoError(t, filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.Count(filepath.ToSlash(path), "/") >= 3 {
			onDisk = append(onDisk, filepath.ToSlash(path))
		}
		return err
	}))
	require.NoError(t, fs.WalkDir(scripts.FS, ".", func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			embedded = append(embedded, path)
		}
		return err
	}))
	assert.NotEmpty(t, embedded)
	assert.Equal(t, onDisk, embedded)
}

// treeFS is a tree of two kinds: a working one, and one whose customization
// targets another kind than its folder.
func treeFS(t *testing.T) fstest.MapFS {
	t.Helper()
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(t, err)
		return data
	}
	return fstest.MapFS{
		"example.io/v1/Widget/customizations.yaml": {Data: read("widget.yaml")},
		"example.io/v1/Gadget/customizations.yaml": {Data: read("widget.yaml")},
		"example.io/v1/Broken/customizations.yaml": {Data: read("broken.yaml")},
		"example.io/v1/README.md":                  {Data: []byte("not a kind")},
	}
}

func TestLayerLoadsKindsOnFirstUse(t *testing.T) {
	cov := luavm.NewCoverage()
	layer := scripts.NewLayer(luavm.New(luavm.WithCoverage(cov)), scripts.FromFS(treeFS(t), "tree"))
	assert.Equal(t, []schema.GroupVersionKind{
		{Group: "example.io", Version: "v1", Kind: "Broken"},
		{Group: "example.io", Version: "v1", Kind: "Gadget"},
		{Group: "example.io", Version: "v1", Kind: "Widget"},
	}, layer.Kinds())
	assert.Empty(t, cov.Scripts(), "nothing is compiled before it is asked for")

	widget := schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}
	assert.True(t, layer.HookEnabled(widget, interpreter.InterpretReplica))
	assert.Equal(t, []string{"widget/healthInterpretation", "widget/replicaResource"}, cov.Scripts())
	assert.False(t, layer.HookEnabled(widget, interpreter.Retain), "the customization defines no retention")

	n, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), object(t, "example.io/v1", "Widget", "spec: {size: 4}"))
	require.NoError(t, err)
	assert.EqualValues(t, 4, n)
}

func TestLayerReportsKindsThatDoNotLoad(t *testing.T) {
	layer := scripts.NewLayer(luavm.New(), scripts.FromFS(treeFS(t), "tree"))
	ctx := context.Background()
	gadget := schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Gadget"}
	broken := schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Broken"}

	tests := []struct {
		name string
		kind schema.GroupVersionKind
		want string
		// prefix makes want the start of the message: the engine's
		// words for a syntax error follow it.
		prefix bool
	}{
		{
			name: "a customization targeting another kind than its folder",
			kind: gadget,
			want: `loading the bundled customizations of example.io/v1, Kind=Gadget: tree/example.io/v1/Gadget/customizations.yaml:1: document 1 "widget": spec.target: targets example.io/v1, Kind=Widget, not example.io/v1, Kind=Gadget, the kind of its folder`,
		},
		{
			name:   "a script that does not compile",
			kind:   broken,
			want:   `loading the bundled customizations of example.io/v1, Kind=Broken: tree/example.io/v1/Broken/customizations.yaml:13: document 1 "broken": spec.customizations.healthInterpretation.luaScript: Lua line 2: syntax error`,
			prefix: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, op := range interpreter.Operations() {
				assert.True(t, layer.HookEnabled(tt.kind, op), "%s: a kind that does not load claims every operation", op)
			}
			_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, object(t, tt.kind.GroupVersion().String(), tt.kind.Kind, ""))
			require.Error(t, err)
			if tt.prefix {
				assert.True(t, strings.HasPrefix(err.Error(), tt.want), err.Error())
			} else {
				assert.Equal(t, tt.want, err.Error())
			}
			_, _, ok := layer.Hook(tt.kind, interpreter.InterpretHealth)
			assert.False(t, ok)
		})
	}

	t.Run("Load reports every kind", func(t *testing.T) {
		err := layer.Load()
		var list customization.ErrorList
		require.ErrorAs(t, err, &list)
		assert.Len(t, list, 2)
	})
}

func TestLayerOtherKinds(t *testing.T) {
	layer := scripts.NewLayer(luavm.New())
	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	for _, op := range interpreter.Operations() {
		assert.False(t, layer.HookEnabled(deployment, op))
	}
	_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), object(t, "apps/v1", "Deployment", ""))
	require.ErrorIs(t, err, interpreter.ErrNoHook)
	assert.EqualError(t, err, "InterpretHealth hook for apps/v1, Kind=Deployment not found")

	_, err = interpreter.Typed{Interpreter: layer}.GetComponents(context.Background(), object(t, "apps.kruise.io/v1alpha1", "CloneSet", ""))
	require.ErrorIs(t, err, interpreter.ErrNoHook, "the CloneSet customization defines no componentResource")
}

// TestRegistry checks the layer in its place: above the built-in handlers,
// so a bundled kind's hooks answer even where the built-in layer claims
// every kind (InterpretStatus), and below the user's customizations.
func TestRegistry(t *testing.T) {
	engine := luavm.New()
	reg := interpreter.NewRegistry().
		Set(interpreter.LayerThirdParty, scripts.NewLayer(engine)).
		Set(interpreter.LayerBuiltin, builtin.New())
	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

	tests := []struct {
		gvk  schema.GroupVersionKind
		op   interpreter.Operation
		want interpreter.Layer
	}{
		{cloneSet, interpreter.InterpretReplica, interpreter.LayerThirdParty},
		{cloneSet, interpreter.InterpretStatus, interpreter.LayerThirdParty},
		{deployment, interpreter.InterpretReplica, interpreter.LayerBuiltin},
		{deployment, interpreter.InterpretStatus, interpreter.LayerBuiltin},
	}
	for _, tt := range tests {
		t.Run(tt.gvk.Kind+"/"+tt.op.String(), func(t *testing.T) {
			got, ok := reg.Which(tt.gvk, tt.op)
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
		})
	}

	t.Run("a user customization wins", func(t *testing.T) {
		set, err := customization.Load("../testdata/customizations/cloneset-health.yaml")
		require.NoError(t, err)
		user, err := customization.NewLayer(engine, set)
		require.NoError(t, err)
		reg.Set(interpreter.LayerCustomization, user)
		got, _ := reg.Which(cloneSet, interpreter.InterpretHealth)
		assert.Equal(t, interpreter.LayerCustomization, got)
		got, _ = reg.Which(cloneSet, interpreter.InterpretReplica)
		assert.Equal(t, interpreter.LayerThirdParty, got, "the user's customization defines no replicaResource")
	})
}

// TestLayerConcurrentFirstUse asks many goroutines about one kind at once:
// it loads once, and every call answers.
func TestLayerConcurrentFirstUse(t *testing.T) {
	layer := scripts.NewLayer(luavm.New())
	obj := object(t, "apps.kruise.io/v1alpha1", "CloneSet", "spec: {replicas: 3}")
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			assert.True(t, layer.HookEnabled(cloneSet, interpreter.InterpretReplica))
			n, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), obj)
			assert.NoError(t, err)
			assert.EqualValues(t, 3, n)
		})
	}
	wg.Wait()
}

// object builds an object of the kind with the YAML fields in body.
func object(t *testing.T, apiVersion, kind, body string) *unstructured.Unstructured {
	t.Helper()
	obj := map[string]any{}
	require.NoError(t, yaml.Unmarshal([]byte(body), &obj))
	obj["apiVersion"], obj["kind"] = apiVersion, kind
	obj["metadata"] = map[string]any{"name": "example", "namespace": "default"}
	return &unstructured.Unstructured{Object: obj}
}

// TestLayerMergesDependencies: as for customizations, every bundled
// customization of a kind answers InterpretDependency, and the references
// are merged, each once, sorted.
func TestLayerMergesDependencies(t *testing.T) {
	hook := func(name, refs string) string {
		return "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata: {name: " + name + "}\n" +
			"spec:\n  target: {apiVersion: example.io/v1, kind: Widget}\n  customizations:\n" +
			"    dependencyInterpretation: {luaScript: 'function GetDependencies(obj) return " + refs + " end'}\n"
	}
	secret := `{apiVersion = "v1", kind = "Secret", namespace = "ns", name = "s"}`
	config := `{apiVersion = "v1", kind = "ConfigMap", namespace = "ns", name = "c"}`
	fsys := fstest.MapFS{"example.io/v1/Widget/customizations.yaml": {Data: []byte(
		hook("widget-secrets", "{"+secret+", "+secret+"}") + "---\n" + hook("widget-configs", "{"+config+", "+secret+"}"))}}
	layer := scripts.NewLayer(luavm.New(), scripts.FromFS(fsys, "tree"))
	deps, err := interpreter.Typed{Interpreter: layer}.GetDependencies(context.Background(), object(t, "example.io/v1", "Widget", ""))
	require.NoError(t, err)
	assert.Equal(t, []interpreter.DependentObjectReference{
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"},
		{APIVersion: "v1", Kind: "Secret", Namespace: "ns", Name: "s"},
	}, deps)
}

// TestBundledAggregateStatusWithoutItems: a binding with no aggregated
// status gives AggregateStatus nil status items, nil in Lua as on
// Karmada; every bundled script takes it.
func TestBundledAggregateStatusWithoutItems(t *testing.T) {
	layer := scripts.NewLayer(luavm.New())
	for _, gvk := range layer.Kinds() {
		if !layer.HookEnabled(gvk, interpreter.AggregateStatus) {
			continue
		}
		t.Run(gvk.String(), func(t *testing.T) {
			obj := object(t, gvk.GroupVersion().String(), gvk.Kind, "spec: {}")
			_, err := interpreter.Typed{Interpreter: layer}.AggregateStatus(context.Background(), obj, nil)
			assert.NoError(t, err)
		})
	}
}
