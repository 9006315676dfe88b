package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// fromYAML decodes YAML the way test cases are decoded.
func fromYAML(t *testing.T, text string) any {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(text))
	require.NoError(t, err)
	var v any
	require.NoError(t, utiljson.Unmarshal(data, &v))
	return v
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name      string
		expected  string
		actual    string
		unordered bool
		want      []Difference
	}{
		{name: "equal maps", expected: "{a: 1, b: [x, y]}", actual: "{b: [x, y], a: 1}"},
		{name: "integer equals float", expected: "2", actual: "2.0"},
		{name: "cpu cores equal millicores", expected: "{cpu: '1'}", actual: "{cpu: 1000m}"},
		{name: "binary memory equals smaller unit", expected: "{memory: 1Gi}", actual: "{memory: 1024Mi}"},
		{name: "decimal equals plain bytes", expected: "{memory: 10M}", actual: "{memory: '10000000'}"},
		{
			name: "different quantities", expected: "{cpu: 1500m}", actual: "{cpu: '1'}",
			want: []Difference{{Path: "cpu", Kind: Changed, Expected: "1500m", Actual: "1"}},
		},
		{
			name: "string never equals number", expected: "{generation: '8'}", actual: "{generation: 8}",
			want: []Difference{{Path: "generation", Kind: Changed, Expected: "8", Actual: int64(8)}},
		},
		{
			// Parsed by value, the two would take minutes (and be equal).
			name: "quantities too large to parse compare as text", expected: "{cpu: '1e-1000000000'}", actual: "{cpu: '0'}",
			want: []Difference{{Path: "cpu", Kind: Changed, Expected: "1e-1000000000", Actual: "0"}},
		},
		{
			name: "non-quantity strings compare as text", expected: "{phase: Ready}", actual: "{phase: ready}",
			want: []Difference{{Path: "phase", Kind: Changed, Expected: "Ready", Actual: "ready"}},
		},
		{
			name: "null differs from absent", expected: "{selector: null}", actual: "{}",
			want: []Difference{{Path: "selector", Kind: Missing}},
		},
		{
			name: "extra actual key", expected: "{a: 1}", actual: "{a: 1, b: {c: 2}}",
			want: []Difference{{Path: "b", Kind: Unexpected, Actual: map[string]any{"c": int64(2)}}},
		},
		{
			name: "empty map differs from empty list", expected: "{a: {}}", actual: "{a: []}",
			want: []Difference{{Path: "a", Kind: Changed, Expected: map[string]any{}, Actual: []any{}}},
		},
		{
			name: "map versus scalar", expected: "{a: {b: 1}}", actual: "{a: 1}",
			want: []Difference{{Path: "a", Kind: Changed, Expected: map[string]any{"b": int64(1)}, Actual: int64(1)}},
		},
		{
			name:     "keys with dots and slashes are quoted",
			expected: `{metadata: {labels: {"app.kubernetes.io/name": web}}}`,
			actual:   `{metadata: {labels: {"app.kubernetes.io/name": api}}}`,
			want:     []Difference{{Path: `metadata.labels["app.kubernetes.io/name"]`, Kind: Changed, Expected: "web", Actual: "api"}},
		},
		{
			name: "list order matters by default", expected: "[a, b]", actual: "[b, a]",
			want: []Difference{
				{Path: "[0]", Kind: Changed, Expected: "a", Actual: "b"},
				{Path: "[1]", Kind: Changed, Expected: "b", Actual: "a"},
			},
		},
		{
			name: "longer actual list", expected: "[a]", actual: "[a, b]",
			want: []Difference{{Path: "[1]", Kind: Unexpected, Actual: "b"}},
		},
		{
			name: "shorter actual list", expected: "[a, b]", actual: "[a]",
			want: []Difference{{Path: "[1]", Kind: Missing, Expected: "b"}},
		},
		{
			name:     "exclude removes a nested path inside lists",
			expected: "{status: {conditions: [{type: Ready, lastTransitionTime: '{{EXCLUDE}}'}, {type: Synced, reason: '{{EXCLUDE}}'}]}}",
			actual:   "{status: {conditions: [{type: Ready, lastTransitionTime: '2024-01-01T00:00:00Z'}, {type: Synced}]}}",
		},
		{
			name:     "exclude removes a list index",
			expected: "{ports: ['{{EXCLUDE}}', 443]}",
			actual:   "{ports: [8080, 443]}",
		},
		{
			name:     "exclude is not shown in a missing value",
			expected: "{status: {conditions: [{type: Ready, lastTransitionTime: '{{EXCLUDE}}'}]}}",
			actual:   "{status: {}}",
			want: []Difference{{Path: "status.conditions", Kind: Missing,
				Expected: []any{map[string]any{"type": "Ready"}}}},
		},
		{
			name:      "unordered lists ignore order",
			expected:  "[{kind: Secret, name: a}, {kind: ConfigMap, name: b}]",
			actual:    "[{kind: ConfigMap, name: b}, {kind: Secret, name: a}]",
			unordered: true,
		},
		{
			name:      "unordered lists pair unmatched elements in order",
			expected:  "[{kind: Secret, name: a}, {kind: ConfigMap, name: b}]",
			actual:    "[{kind: ConfigMap, name: c}, {kind: Secret, name: a}]",
			unordered: true,
			want:      []Difference{{Path: "[1].name", Kind: Changed, Expected: "b", Actual: "c"}},
		},
		{
			name:      "unordered lists find the maximum matching",
			expected:  "[{kind: Secret, name: '{{EXCLUDE}}'}, {kind: Secret, name: a}]",
			actual:    "[{kind: Secret, name: a}, {kind: Secret, name: b}]",
			unordered: true,
		},
		{
			name:      "unordered lists report extra actual elements after the expected ones",
			expected:  "[{name: a}]",
			actual:    "[{name: b}, {name: a}]",
			unordered: true,
			want:      []Difference{{Path: "[1]", Kind: Unexpected, Actual: map[string]any{"name": "b"}}},
		},
		{
			name:      "unordered applies to the top-level list only",
			expected:  "[{values: [a, b]}]",
			actual:    "[{values: [b, a]}]",
			unordered: true,
			want: []Difference{
				{Path: "[0].values[0]", Kind: Changed, Expected: "a", Actual: "b"},
				{Path: "[0].values[1]", Kind: Changed, Expected: "b", Actual: "a"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []Option
			if tt.unordered {
				opts = append(opts, Unordered())
			}
			got := Diff(fromYAML(t, tt.expected), fromYAML(t, tt.actual), opts...)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDiffAt(t *testing.T) {
	got := Diff(fromYAML(t, "{replicas: 3}"), fromYAML(t, "{replicas: 2}"), At("aggregatedStatus"))
	assert.Equal(t, []Difference{{Path: "aggregatedStatus.replicas", Kind: Changed, Expected: int64(3), Actual: int64(2)}}, got)
}

func TestNormalize(t *testing.T) {
	type requirements struct {
		ResourceRequest map[string]string `json:"resourceRequest"`
		Replicas        int32             `json:"replicas"`
	}
	got, err := Normalize(requirements{ResourceRequest: map[string]string{"cpu": "2"}, Replicas: 3})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"resourceRequest": map[string]any{"cpu": "2"}, "replicas": int64(3)}, got)

	_, err = Normalize(func() {})
	require.EqualError(t, err, "json: unsupported type: func()")
}

func TestFormat(t *testing.T) {
	diffs := Diff(
		fromYAML(t, "{replica: 3, requires: {resourceRequest: {cpu: '2', memory: 1Gi}}, status: {phase: Ready}}"),
		fromYAML(t, "{replica: 3, requires: {resourceRequest: {cpu: 2500m, memory: 1024Mi}}, extra: {a: [1, 2]}}"),
	)
	assert.Equal(t, `extra:
+ a:
+ - 1
+ - 2
requires.resourceRequest.cpu:
- "2"
+ 2500m
status:
- phase: Ready
`, Format(diffs))
}
