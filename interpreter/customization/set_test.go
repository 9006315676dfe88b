package customization

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// hooks returns a customization document named name for kind, with one
// trivial script per key.
func hooks(name, kind string, keys ...string) string {
	lines := []string{
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata:",
		"  name: " + name,
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: " + kind + "}",
		"  customizations:",
	}
	if len(keys) == 0 {
		lines[len(lines)-1] += " {}"
	}
	for _, key := range keys {
		op, _ := interpreter.OperationForKey(key)
		lines = append(lines, "    "+key+":", "      luaScript: function "+op.LuaFunction()+"() end")
	}
	return doc(lines...)
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicas: 2}
`

// writeFiles lays out files (path → contents) under a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, contents := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(contents), 0o644))
	}
	return dir
}

func names(set *Set) []string {
	var names []string
	for _, c := range set.Customizations {
		names = append(names, c.Name)
	}
	return names
}

func warnings(set *Set) []string {
	var out []string
	for _, w := range set.Warnings {
		out = append(out, w.String())
	}
	return out
}

func TestLoadDirectory(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b.yaml":              hooks("zeta", "Foo", "replicaResource") + "---\n" + deployment,
		"a/nested.yml":        hooks("alpha", "Bar", "retention"),
		"c.json":              `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}`,
		"notes.txt":           "not a manifest",
		".hidden/secret.yaml": "this: [would not parse",
	})
	set, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha", "zeta"}, names(set), "ordered by name, whatever the file order")
	assert.Equal(t, []string{
		filepath.Join(dir, "b.yaml") + `:11: document 2: skipped apps/v1 Deployment: not a ResourceInterpreterCustomization`,
		filepath.Join(dir, "c.json") + `:1: document 1: skipped v1 ConfigMap: not a ResourceInterpreterCustomization`,
	}, warnings(set))
}

func TestLoadSameFileTwice(t *testing.T) {
	dir := writeFiles(t, map[string]string{"hooks.yaml": hooks("one", "Foo", "retention")})
	set, err := Load(dir, filepath.Join(dir, "hooks.yaml"))
	require.NoError(t, err)
	assert.Equal(t, []string{"one"}, names(set))
}

func TestLoadStdin(t *testing.T) {
	dir := writeFiles(t, map[string]string{"hooks.yaml": hooks("from-file", "Foo", "retention")})
	set, err := Loader{Stdin: strings.NewReader(hooks("from-stdin", "Bar", "retention"))}.Load("-", dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"from-file", "from-stdin"}, names(set))
	c, ok := set.Lookup("from-stdin")
	require.True(t, ok)
	assert.Equal(t, "<stdin>", c.Position.File)

	_, err = Loader{}.Load("-")
	require.EqualError(t, err, "<stdin>: standard input is not available")
}

func TestLoadList(t *testing.T) {
	indent := func(s string) string {
		return "- " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
	}
	src := "apiVersion: v1\nkind: List\nitems:\n" + indent(hooks("one", "Foo", "retention")) + indent(deployment)
	set, err := Parse("list.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []string{"one"}, names(set))
	assert.Equal(t, Position{File: "list.yaml", Line: 4, Document: 1, Item: 1, Name: "one"}, set.Customizations[0].Position)
	assert.Equal(t, []string{`list.yaml:13: document 1 item 2: skipped apps/v1 Deployment: not a ResourceInterpreterCustomization`}, warnings(set))
}

func TestLoadSkipsWhatIsNotAnObject(t *testing.T) {
	src := "# a comment before the first document\n---\nname: a test case\noperation: Retain\n---\n" + hooks("one", "Foo", "retention") + "---\n"
	set, err := Parse("mixed.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []string{"one"}, names(set))
	assert.Equal(t, []string{`mixed.yaml:3: document 1: skipped: not a Kubernetes object (no apiVersion and kind)`}, warnings(set))
}

func TestLoadFileErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"empty/readme.md": "nothing here"})
	missing := filepath.Join(dir, "missing.yaml")
	_, err := Load(missing, filepath.Join(dir, "empty"))
	require.EqualError(t, err, missing+": no such file or directory\n"+
		filepath.Join(dir, "empty")+": no *.yaml, *.yml or *.json file in directory")
}

func TestSetOrderAndOverlaps(t *testing.T) {
	src := strings.Join([]string{
		hooks("b-extra", "CloneSet", "replicaResource", "healthInterpretation"),
		hooks("a-main", "CloneSet", "replicaResource", "retention"),
		hooks("c-other-kind", "Other", "replicaResource"),
		hooks("empty", "CloneSet"),
	}, "---\n")
	set, err := Parse("hooks.yaml", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []string{"a-main", "b-extra", "c-other-kind", "empty"}, names(set))
	assert.Equal(t, []string{
		`hooks.yaml:35: document 4 "empty": spec.customizations defines no operation`,
		`hooks.yaml:1: document 1 "b-extra": replicaResource for example.io/v1, Kind=CloneSet is also defined by "a-main"; ` +
			`"a-main" is used (customizations apply in name order, the first wins)`,
	}, warnings(set))
}

func TestSetDuplicateName(t *testing.T) {
	src := hooks("same", "Foo", "retention") + "---\n" + hooks("same", "Bar", "retention")
	set, err := Parse("hooks.yaml", []byte(src))
	require.EqualError(t, err, `hooks.yaml:11: document 2 "same": metadata.name: duplicate name, already used by hooks.yaml:1: document 1 "same"`)
	assert.Equal(t, []string{"same"}, names(set), "the first keeps the name")
}
