package podspec

import (
	"encoding/json"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// FuzzPodSpec feeds pod specs, seeded from the test cases' manifests, to
// Requirements and Dependencies: whatever the input, they return a result
// or an error, never panic, and a result encodes as JSON.
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
		if req, err := Requirements(podSpec); err == nil {
			if _, err := json.Marshal(req); err != nil {
				t.Fatalf("requirements do not encode: %v", err)
			}
		}
		if refs, err := Dependencies(podSpec, "ns"); err == nil {
			for _, ref := range refs {
				if ref.Name == "" || ref.APIVersion != "v1" {
					t.Fatalf("invalid reference %+v", ref)
				}
			}
		}
	})
}
