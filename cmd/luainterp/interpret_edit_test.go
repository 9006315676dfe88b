package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeEditor makes $EDITOR a shell script running body on the file it is
// given ("$1"), as an editor saving a change would.
func fakeEditor(t *testing.T, body string) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "editor.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nset -e\n"+body+"\n"), 0o755))
	t.Setenv("KUBE_EDITOR", "")
	t.Setenv("EDITOR", script)
}

// copyFile copies a file into a new folder and returns the copy's path.
func copyFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return writeFile(t, filepath.Base(path), string(data))
}

func TestInterpretEdit(t *testing.T) {
	t.Run("edits the file of -f, then runs the operation on it", func(t *testing.T) {
		fakeEditor(t, `sed -i 's/return replicas, kube/return 7, kube/' "$1"`)
		hooks := copyFile(t, exampleCustomization)
		r := run(t, "", "interpret", "--edit", "-f", hooks, "--operation", "InterpretReplica", "--observed-file", exampleWorkload, "-o", "json")
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stdout, `"replica": 7,`)
		saved, err := os.ReadFile(hooks)
		require.NoError(t, err)
		assert.Contains(t, string(saved), "return 7, kube.accuratePodRequirements(obj.spec.template)", "the edit is kept")
	})
	t.Run("a new customization for the object's kind", func(t *testing.T) {
		fakeEditor(t, `echo "$1" > `+filepath.Join(t.TempDir(), "edited")+`
sed -i 's/return condition.status == "True"/return false/; s/          return true$/          return false/' "$1"`)
		r := run(t, "", "interpret", "--edit", "--operation", "InterpretHealth", "--observed-file", exampleWorkload)
		require.NoError(t, r.err, r.stderr)
		assert.Equal(t, "healthy: false\n", r.stdout)
		m := regexp.MustCompile(`^editing a new customization for apps.kruise.io/v1alpha1 CloneSet in (\S+) \(run again with -f (\S+)\)\n$`).FindStringSubmatch(r.stderr)
		require.NotNil(t, m, r.stderr)
		assert.Equal(t, m[1], m[2])
		t.Cleanup(func() { os.Remove(m[1]) })
		kept, err := os.ReadFile(m[1])
		require.NoError(t, err)
		assert.Contains(t, string(kept), "kind: CloneSet")
		assert.NotContains(t, string(kept), `return condition.status == "True"`)
	})
	t.Run("without an operation, checks what was saved", func(t *testing.T) {
		fakeEditor(t, `sed -i 's/function GetReplicas(obj)/function GetReplica(obj)/' "$1"`)
		hooks := copyFile(t, exampleCustomization)
		r := run(t, "", "interpret", "--edit", "-f", hooks)
		require.Error(t, r.err)
		assert.Equal(t, 1, r.code)
		assert.Regexp(t, `(?m)^ERROR  cloneset-example  replicaResource  .*GetReplicas`, r.stdout)
		assert.Regexp(t, `(?m)^PASS   cloneset-example  replicaRevision$`, r.stdout)
	})
	t.Run("an editor that fails runs nothing", func(t *testing.T) {
		fakeEditor(t, `exit 3`)
		hooks := copyFile(t, exampleCustomization)
		r := run(t, "", "interpret", "--edit", "-f", hooks, "--operation", "InterpretReplica", "--observed-file", exampleWorkload)
		require.Error(t, r.err)
		assert.Regexp(t, `^--edit: editor ".*/editor.sh .*/customization.yaml": exit status 3$`, r.err.Error())
		assert.Empty(t, r.stdout)
	})
	t.Run("KUBE_EDITOR first, with its arguments", func(t *testing.T) {
		fakeEditor(t, `exit 1`)
		script := writeFile(t, "kube-editor.sh", "#!/bin/sh\nsed -i \"s/return replicas, kube/return $1, kube/\" \"$2\"\n")
		require.NoError(t, os.Chmod(script, 0o755))
		t.Setenv("KUBE_EDITOR", script+" 5")
		hooks := copyFile(t, exampleCustomization)
		r := run(t, "", "interpret", "--edit", "-f", hooks, "--operation", "InterpretReplica", "--observed-file", exampleWorkload, "-o", "json")
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stdout, `"replica": 5,`)
	})
}

func TestInterpretEditErrors(t *testing.T) {
	fakeEditor(t, `exit 0`)
	tests := []struct {
		name string
		args []string
		err  string // in full
	}{
		{name: "nothing to edit", args: []string{"--edit", "--operation", "InterpretHealth"},
			err: "--edit: needs -f FILE to edit, or --observed-file or --desired-file for the kind of a new customization"},
		{name: "two files", args: []string{"--edit", "-f", exampleCustomization, "-f", exampleCustomization},
			err: "--edit: edits one customization file: give -f once, or not at all for a new one"},
		{name: "a directory", args: []string{"--edit", "-f", "../../testdata/examples"},
			err: "--edit: -f ../../testdata/examples: want a file, not a directory"},
		{name: "a URL", args: []string{"--edit", "-f", "https://example.com/hooks.yaml"},
			err: "--edit: -f https://example.com/hooks.yaml: want a local file to edit"},
		{name: "a missing file", args: []string{"--edit", "-f", "no-such.yaml"},
			err: "--edit: stat no-such.yaml: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"interpret"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, tt.err, r.err.Error())
		})
	}
}
