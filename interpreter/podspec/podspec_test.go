package podspec

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// testCase is one case of testdata/*.yaml.
type testCase struct {
	Name          string          `json:"name"`
	Namespace     string          `json:"namespace"`
	PodSpec       json.RawMessage `json:"podSpec"`
	Want          json.RawMessage `json:"want"`
	Error         string          `json:"error"`
	ErrorContains string          `json:"errorContains"`
}

// loadCases reads a YAML list of cases; pod specs decode as the
// Kubernetes unstructured decoder does (whole numbers as int64).
func loadCases(t testing.TB, path string) []testCase {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data, err = yaml.YAMLToJSON(data)
	require.NoError(t, err)
	var cases []testCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	return cases
}

func (tc testCase) podSpec(t *testing.T) map[string]any {
	t.Helper()
	podSpec := map[string]any{}
	require.NoError(t, utiljson.Unmarshal(tc.PodSpec, &podSpec))
	return podSpec
}

// check compares a result with the case's expectation, as JSON.
func (tc testCase) check(t *testing.T, got any, err error) {
	t.Helper()
	switch {
	case tc.Error != "":
		require.EqualError(t, err, tc.Error)
	case tc.ErrorContains != "":
		require.ErrorContains(t, err, tc.ErrorContains)
	default:
		require.NoError(t, err)
		out, err := json.Marshal(got)
		require.NoError(t, err)
		assert.JSONEq(t, string(tc.Want), string(out))
	}
}

func TestRequirements(t *testing.T) {
	for _, tc := range loadCases(t, "testdata/requirements.yaml") {
		t.Run(tc.Name, func(t *testing.T) {
			podSpec := tc.podSpec(t)
			before, err := json.Marshal(podSpec)
			require.NoError(t, err)
			got, err := Requirements(podSpec)
			tc.check(t, got, err)
			after, err := json.Marshal(podSpec)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after), "the pod spec was modified")
		})
	}
}

func TestDependencies(t *testing.T) {
	for _, tc := range loadCases(t, "testdata/dependencies.yaml") {
		t.Run(tc.Name, func(t *testing.T) {
			got, err := Dependencies(tc.podSpec(t), tc.Namespace)
			tc.check(t, got, err)
		})
	}
}
