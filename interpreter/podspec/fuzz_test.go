package podspec

import (
	"encoding/json"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// FuzzPodSpec feeds pod specs, seeded from the test cases' manifests, to
// Requirements and Dependencies: whatever the input, they return a result
// or an error with a message, never panic, and a result encodes as JSON.
func FuzzPodSpec(f *testing.F) {
	for _, file := range []string{"testdata/requirements.yaml", "testdata/dependencies.yaml"} {
		for _, tc := range loadCases(f, file) {
			f.Add([]byte(tc.PodSpec))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		podSpec := map[string]any{}
		if utiljson.Unmarshal(data, &podSpec) != nil {
			return
		}
		req, err := Requirements(podSpec)
		checkMessage(t, err)
		if err == nil {
			if _, err := json.Marshal(req); err != nil {
				t.Fatalf("requirements do not encode: %v", err)
			}
		}
		refs, err := Dependencies(podSpec, "ns")
		checkMessage(t, err)
		for _, ref := range refs {
			if ref.Name == "" || ref.APIVersion != "v1" {
				t.Fatalf("invalid reference %+v", ref)
			}
		}
	})
}

// checkMessage fails when err's message is empty or cannot be built (an
// error wrapping nil once panicked here).
func checkMessage(t *testing.T, err error) {
	t.Helper()
	if err != nil && err.Error() == "" {
		t.Fatalf("an error without a message: %#v", err)
	}
}
