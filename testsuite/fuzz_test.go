package testsuite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that any text parses to cases or to errors that each
// name their document, never to a panic.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	more, _ := filepath.Glob("../testdata/suites/*/*/testdata/*.yaml")
	for _, file := range append(files, more...) {
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
			if !errors.As(e, &doc) && len(cases) > 0 {
				t.Fatalf("error names no document: %v", e)
			}
		}
	})
}
