package customization

import (
	"os"
	"testing"
)

// FuzzParse checks that no input makes loading panic or hang, and that a
// Set loaded without error holds only complete customizations.
func FuzzParse(f *testing.F) {
	example, err := os.ReadFile("../../testdata/examples/customization.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{string(example), cloneSetHooks, widgetHooks, deployment,
		"apiVersion: v1\nkind: List\nitems:\n- *a\n", "a: &a [*a]\n", "{\"kind\": 1}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		for _, c := range set.Customizations {
			if c.Name == "" || c.Target.Kind == "" || c.Target.Version == "" {
				t.Fatalf("incomplete customization without error: %+v", c)
			}
		}
	})
}
