package overrides

import "testing"

// BenchmarkApplyOverriders applies one rule to a Deployment, as the
// pipeline does once per cluster: plaintext patches whose paths share a
// parent object or end in a list entry, and image overriders with and
// without a predicate.
func BenchmarkApplyOverriders(b *testing.B) {
	for _, bc := range []struct{ name, overriders string }{
		{"plaintext/object-parent", `plaintext: [{path: /spec/template/spec/schedulerName, operator: add, value: edge}]`},
		{"plaintext/list-entry", `plaintext: [{path: /spec/template/spec/containers/0/image, operator: replace, value: "nginx:1.26"}]`},
		{"image", `imageOverrider: [{component: Registry, operator: replace, value: mirror.io}]`},
		{"image/predicate", `imageOverrider: [{predicate: {path: /spec/template/spec/containers/0/image}, component: Registry, operator: replace, value: mirror.io}]`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			o := overriders(b, bc.overriders)
			obj := object(b, deployment)
			b.ReportAllocs()
			for b.Loop() {
				if err := applyOverriders(obj, o); err != nil {
					b.Fatal(err.field, err.err)
				}
			}
		})
	}
}
