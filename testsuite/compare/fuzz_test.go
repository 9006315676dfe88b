package compare

import (
	"testing"

	"sigs.k8s.io/yaml"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// FuzzDiff checks that any value equals itself, ordered or not, and that
// comparing two values never panics.
func FuzzDiff(f *testing.F) {
	f.Add("{cpu: '1', memory: 1Gi}", "{cpu: 1000m, memory: 1024Mi}")
	f.Add("[{kind: Secret, name: a}, {kind: ConfigMap, name: '{{EXCLUDE}}'}]", "[{kind: ConfigMap, name: b}, {kind: Secret, name: a}]")
	f.Add("{status: {conditions: [{type: Ready, lastTransitionTime: '{{EXCLUDE}}'}]}}", "{status: {}}")
	f.Add("[1, 2.5, null, true, 'x']", "{a: [1, {b: []}]}")
	f.Fuzz(func(t *testing.T, a, b string) {
		va, oka := decode(a)
		vb, okb := decode(b)
		if !oka || !okb {
			return
		}
		if d := Diff(va, va); d != nil {
			t.Fatalf("%s differs from itself: %v", a, d)
		}
		if d := Diff(va, va, Unordered()); d != nil {
			t.Fatalf("%s differs from itself, unordered: %v", a, d)
		}
		Format(Diff(va, vb))
		Format(Diff(va, vb, Unordered(), At("dependencies")))
	})
}

func decode(text string) (any, bool) {
	data, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return nil, false
	}
	var v any
	return v, utiljson.Unmarshal(data, &v) == nil
}
