package manifest

import (
	"os"
	"testing"
)

// BenchmarkParse reads a file of 15 YAML documents (Karmada's Deployment
// cases) into objects: splitting, YAML to JSON, decoding.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/conformance/native/deployment.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("deployment.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}
