package customization

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// kindHook is a customization name of example.io/v1 kind whose GetReplicas returns n.
func kindHook(name, kind string, n int) string {
	return doc(
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: "+name+"}",
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: "+kind+"}",
		"  customizations:",
		"    replicaResource:",
		"      luaScript: |",
		"        function GetReplicas(obj)",
		fmt.Sprintf("          return %d, nil", n),
		"        end",
	)
}

// cut returns text up to and including the first line holding after.
func cut(t *testing.T, text, after string) string {
	t.Helper()
	i := strings.Index(text, after)
	require.GreaterOrEqual(t, i, 0, "%q not in the text", after)
	return text[:i+len(after)] + "\n"
}

// replicasOfKind returns what reg answers InterpretReplica for an
// example.io/v1 kind, -1 when it fails.
func replicasOfKind(reg *interpreter.Registry, kind string) int32 {
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": kind, "metadata": map[string]any{"name": "w"}}}
	n, _, err := reg.GetReplicas(context.Background(), obj)
	if err != nil {
		return -1
	}
	return n
}

// reloadStep changes the files, loads, and says what should serve.
type reloadStep struct {
	write    map[string]string // file name -> contents
	remove   []string
	replicas map[string]int32 // kind -> what InterpretReplica answers, -1 for no hook
	outcomes []string         // "file outcome serving|-", one per file reported, in file order
}

func TestReloaderFiles(t *testing.T) {
	b := kindHook("b", "Beta", 2) + "---\n" + kindHook("c", "Gamma", 3)
	start := map[string]int32{"Alpha": 1, "Beta": 2, "Gamma": 3}
	held := func(replicas map[string]int32, outcome string) reloadStep {
		return reloadStep{replicas: replicas, outcomes: []string{"b.yaml " + outcome + " serving"}}
	}
	emptied := func(contents string) []reloadStep {
		step := held(start, "emptied")
		step.write = map[string]string{"b.yaml": contents}
		return []reloadStep{step}
	}
	invalid := func(contents string) []reloadStep {
		step := held(start, "invalid")
		step.write = map[string]string{"b.yaml": contents}
		return []reloadStep{step}
	}
	tests := []struct {
		name  string
		steps []reloadStep
	}{
		{"an empty file keeps its last good version", emptied("")},
		{"a file of a comment keeps its last good version", emptied("# nothing yet\n")},
		{"a file cut before its kind", emptied("apiVersion: config.karmada.io/v1alpha1\n")},
		{"a file cut in its kind", emptied("apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterp\n")},
		{"a file cut after a key, left null", emptied(cut(t, b, "    replicaResource:"))},
		{"a customization of two left with no operation", emptied(kindHook("b", "Beta", 2) + "---\n" + cut(t, kindHook("c", "Gamma", 3), "    replicaResource:"))},
		{"a file cut after spec:", invalid(cut(t, b, "spec:"))},
		{"a file cut after customizations:", invalid(cut(t, b, "  customizations:"))},
		{"a file cut mid-script", invalid(cut(t, b, "return 2, nil"))},
		{"a valid edit defining fewer customizations applies", []reloadStep{{
			write:    map[string]string{"b.yaml": kindHook("b", "Beta", 5)},
			replicas: map[string]int32{"Alpha": 1, "Beta": 5, "Gamma": -1},
			outcomes: []string{"b.yaml loaded serving"},
		}}},
		{"a broken file leaves the other files' edits applying", []reloadStep{{
			write:    map[string]string{"a.yaml": kindHook("a", "Alpha", 7), "b.yaml": ""},
			replicas: map[string]int32{"Alpha": 7, "Beta": 2, "Gamma": 3},
			outcomes: []string{"a.yaml loaded serving", "b.yaml emptied serving"},
		}, {
			write:    map[string]string{"a.yaml": kindHook("a", "Alpha", 8)},
			replicas: map[string]int32{"Alpha": 8, "Beta": 2, "Gamma": 3},
			outcomes: []string{"a.yaml loaded serving"},
		}}},
		{"a fixed file serves again", []reloadStep{
			{write: map[string]string{"b.yaml": ""}, replicas: start, outcomes: []string{"b.yaml emptied serving"}},
			{write: map[string]string{"b.yaml": kindHook("b", "Beta", 6)},
				replicas: map[string]int32{"Alpha": 1, "Beta": 6, "Gamma": -1}, outcomes: []string{"b.yaml loaded serving"}},
		}},
		{"deleting a file removes its hooks", []reloadStep{{
			remove:   []string{"b.yaml"},
			replicas: map[string]int32{"Alpha": 1, "Beta": -1, "Gamma": -1},
			outcomes: []string{"b.yaml deleted -"},
		}}},
		{"deleting an emptied file removes its hooks", []reloadStep{
			{write: map[string]string{"b.yaml": ""}, replicas: start, outcomes: []string{"b.yaml emptied serving"}},
			{remove: []string{"b.yaml"}, replicas: map[string]int32{"Alpha": 1, "Beta": -1, "Gamma": -1}, outcomes: []string{"b.yaml deleted -"}},
		}},
		{"a new empty file is no change", []reloadStep{{
			write: map[string]string{"new.yaml": ""}, replicas: start, outcomes: []string{"new.yaml loaded serving"},
		}}},
		{"a name another file serves waits until it is free", []reloadStep{
			{write: map[string]string{"z.yaml": kindHook("a", "Alpha", 9)}, replicas: start, outcomes: []string{"z.yaml invalid -"}},
			{write: map[string]string{"b.yaml": kindHook("b", "Beta", 4)},
				replicas: map[string]int32{"Alpha": 1, "Beta": 4, "Gamma": -1}, outcomes: []string{"b.yaml loaded serving"}},
			{remove: []string{"a.yaml"}, replicas: map[string]int32{"Alpha": 9, "Beta": 4, "Gamma": -1},
				outcomes: []string{"a.yaml deleted -", "z.yaml loaded serving"}},
		}},
		{"deleting every file removes every hook", []reloadStep{{
			remove: []string{"a.yaml", "b.yaml"}, replicas: map[string]int32{"Alpha": -1, "Beta": -1, "Gamma": -1},
			outcomes: []string{"a.yaml deleted -", "b.yaml deleted -"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"a.yaml": kindHook("a", "Alpha", 1), "b.yaml": b})
			var outcomes []string
			r := &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{dir},
				OnFile: func(f FileReload) {
					serving := "-"
					if f.Serving {
						serving = "serving"
					}
					rel, err := filepath.Rel(dir, f.File)
					require.NoError(t, err)
					outcomes = append(outcomes, rel+" "+f.Outcome.String()+" "+serving)
				}}
			require.NoError(t, r.Load())
			outcomes = nil
			for i, step := range tt.steps {
				for name, contents := range step.write {
					require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(contents), 0o644))
				}
				for _, name := range step.remove {
					require.NoError(t, os.Remove(filepath.Join(dir, name)))
				}
				_ = r.Load() // its error is told through OnFile too
				for kind, want := range step.replicas {
					assert.Equal(t, want, replicasOfKind(r.Registry, kind), "step %d: %s", i+1, kind)
				}
				assert.Equal(t, step.outcomes, outcomes, "step %d", i+1)
				outcomes = nil
			}
		})
	}
}

func TestReloaderFileErrors(t *testing.T) {
	b := kindHook("b", "Beta", 2) + "---\n" + kindHook("c", "Gamma", 3)
	tests := []struct {
		name     string
		file     string
		contents string
		err      string // in full, every "DIR/" the test's directory
	}{
		{"empty", "b.yaml", "", `DIR/b.yaml: defines no operation, where its last good version defines "b" (replicaResource), "c" (replicaResource): refused as empty or cut short`},
		{"a customization left with no operation", "b.yaml", kindHook("b", "Beta", 2) + "---\n" + cut(t, kindHook("c", "Gamma", 3), "replicaResource:"),
			`DIR/b.yaml: leaves no operation to "c" (replicaResource): refused as cut short (delete a customization's document to remove it)`},
		{"a duplicate name", "z.yaml", kindHook("a", "Alpha", 9),
			`DIR/z.yaml:1: document 1 "a": metadata.name: duplicate name, already used by DIR/a.yaml:1: document 1 "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"a.yaml": kindHook("a", "Alpha", 1), "b.yaml": b})
			r := &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{dir}}
			require.NoError(t, r.Load())
			require.NoError(t, os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.contents), 0o644))
			err := r.Load()
			assert.EqualError(t, err, strings.ReplaceAll(tt.err, "DIR/", dir+string(filepath.Separator)))
			var emptied *EmptiedError
			assert.Equal(t, strings.Contains(tt.err, "refused as"), errors.As(err, &emptied), "an *EmptiedError")
			require.NoError(t, os.Remove(filepath.Join(dir, tt.file)))
			require.NoError(t, r.Load(), "once the file is deleted")
		})
	}
}

func TestReloaderNamedFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": kindHook("a", "Alpha", 1), "b.yaml": kindHook("b", "Beta", 2)})
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	r := &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{a, b}}
	require.NoError(t, r.Load())

	require.NoError(t, os.WriteFile(a, nil, 0o644))
	require.NoError(t, os.WriteFile(b, []byte(kindHook("b", "Beta", 3)), 0o644))
	assert.Error(t, r.Load())
	assert.Equal(t, int32(1), replicasOfKind(r.Registry, "Alpha"), "a file named and caught empty keeps its last good version")
	assert.Equal(t, int32(3), replicasOfKind(r.Registry, "Beta"), "the other file's edit applies")

	require.NoError(t, os.Remove(a))
	require.NoError(t, r.Load(), "a file named and deleted is no error")
	assert.Equal(t, int32(-1), replicasOfKind(r.Registry, "Alpha"), "a file named and deleted loses its hooks")
	assert.Equal(t, int32(3), replicasOfKind(r.Registry, "Beta"))
}
