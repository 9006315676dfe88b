package compare

import (
	"strings"

	"sigs.k8s.io/yaml"
)

// Format renders differences as a YAML diff of only the differing paths:
// each path, then the expected value as YAML on lines starting with "-"
// and the actual value on lines starting with "+". A side with no value
// has no lines.
func Format(diffs []Difference) string {
	var b strings.Builder
	for _, d := range diffs {
		b.WriteString(d.Path + ":\n")
		if d.Kind != Unexpected {
			writeYAML(&b, "- ", d.Expected)
		}
		if d.Kind != Missing {
			writeYAML(&b, "+ ", d.Actual)
		}
	}
	return b.String()
}

func writeYAML(b *strings.Builder, prefix string, v any) {
	data, err := yaml.Marshal(v)
	if err != nil { // not a JSON value: cannot come from Diff
		data = []byte(err.Error() + "\n")
	}
	for line := range strings.Lines(string(data)) {
		b.WriteString(prefix + line)
	}
}
