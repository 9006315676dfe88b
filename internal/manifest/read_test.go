package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRead(t *testing.T) {
	const dir = "testdata/tree"
	at := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name  string
		stdin *strings.Reader
		paths []string
		want  []string // the files' names, or name=data for standard input
		err   string   // in full; "" for none
	}{
		{
			name:  "a directory: manifests below it in lexical order, hidden entries skipped",
			paths: []string{dir},
			want:  []string{at("a/nested.yml"), at("b.yaml"), at("c.JSON")},
		},
		{
			name:  "a file named again is read once",
			paths: []string{at("b.yaml"), dir, "./" + at("a") + "/../b.yaml"},
			want:  []string{at("b.yaml"), at("a/nested.yml"), at("c.JSON")},
		},
		{
			name:  "a file is read whatever its name",
			paths: []string{at("notes.txt")},
			want:  []string{at("notes.txt")},
		},
		{
			name:  "standard input",
			stdin: strings.NewReader("from stdin"),
			paths: []string{at("b.yaml"), "-"},
			want:  []string{at("b.yaml"), "<stdin>=from stdin"},
		},
		{
			name:  "standard input given twice",
			stdin: strings.NewReader("from stdin"),
			paths: []string{"-", "-"},
			want:  []string{"<stdin>=from stdin"},
		},
		{
			name:  "problems do not stop the other paths",
			paths: []string{at("missing.yaml"), at("b.yaml"), at("empty"), "-"},
			want:  []string{at("b.yaml")},
			err: at("missing.yaml") + ": no such file or directory\n" +
				at("empty") + ": no *.yaml, *.yml or *.json file in directory\n" +
				"<stdin>: standard input is not available",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Reader{}
			if tt.stdin != nil {
				r.Stdin = tt.stdin
			}
			files, err := r.Read(tt.paths...)
			if tt.err == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tt.err)
			}
			var got []string
			for _, f := range files {
				if f.Name == StdinName {
					got = append(got, f.Name+"="+string(f.Data))
					continue
				}
				data, err := os.ReadFile(f.Name)
				require.NoError(t, err)
				assert.Equal(t, data, f.Data, f.Name)
				got = append(got, f.Name)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestReadStdin(t *testing.T) {
	r := &Reader{Stdin: strings.NewReader("kind: A\n")}
	_, err := r.Read("-")
	require.NoError(t, err)
	_, err = r.Read("-")
	require.EqualError(t, err, "<stdin>: standard input is already read", "a Reader reads standard input once")

	r = &Reader{Stdin: iotest.ErrReader(errors.New("broken pipe"))}
	_, err = r.Read("-")
	require.EqualError(t, err, "<stdin>: read: broken pipe")
}

func TestReaderObjects(t *testing.T) {
	objs, err := (&Reader{}).Objects("testdata/tree", "testdata/none.yaml")
	require.EqualError(t, err, "testdata/none.yaml: no such file or directory\n"+
		"testdata/tree/b.yaml:5: document 2: invalid YAML: did not find expected node content")
	var got []string
	for _, o := range objs {
		got = append(got, o.Source.String()+" "+o.Object["kind"].(string))
	}
	assert.Equal(t, []string{
		"testdata/tree/a/nested.yml:1: document 1 item 1 Nested",
		"testdata/tree/b.yaml:1: document 1 B",
		"testdata/tree/c.JSON:1: document 1 C1",
		"testdata/tree/c.JSON:2: document 2 C2",
	}, got)
}

func TestIsManifest(t *testing.T) {
	for name, want := range map[string]bool{"a.yaml": true, "a.YML": true, "dir/a.json": true, "a.yaml.bak": false, "yaml": false} {
		assert.Equal(t, want, IsManifest(name), name)
	}
}
