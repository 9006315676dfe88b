package testsuite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that any text parses to cases or to errors that each
// name their document (or the file, when it holds none), never to a panic.
func FuzzParse(f *testing.F) {
	var files []string
	for _, pattern := range []string{
		"testdata/*.yaml",
		"../testdata/suites/*/*/testdata/*.yaml",     // broken and failing suites
		"../testdata/suites/*/*/*/*/testdata/*.yaml", // <group>/<version>/<Kind> suites
		"../scripts/*/*/*/testdata/*.yaml",           // the bundled suites
	} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	if len(files) < 20 {
		f.Fatalf("%d seed files: the patterns no longer find the suites", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := Parse("fuzz.yaml", data)
		for _, c := range cases {
			if _, rerr := c.Request(); rerr != nil || c.Name == "" || !c.Operation.Valid() {
				t.Fatalf("case %q accepted with operation %v: %v", c.Name, c.Operation, rerr)
			}
		}
		if err == nil {
			return
		}
		var joined interface{ Unwrap() []error }
		if !errors.As(err, &joined) {
			t.Fatalf("error is not a list: %v", err)
		}
		for _, e := range joined.Unwrap() {
			var doc *DocumentError
			if !errors.As(e, &doc) {
				t.Fatalf("error names no document: %v", e)
			}
		}
	})
}
