package luavm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
)

// scriptCase is one case of testdata/*.yaml: a script, the input of one
// operation, and either the results (by result name, as the CLI prints
// them) or the full error message.
type scriptCase struct {
	Name        string                             `json:"name"`
	Operation   interpreter.Operation              `json:"operation"`
	Script      string                             `json:"script"`
	Object      json.RawMessage                    `json:"object"`
	Observed    json.RawMessage                    `json:"observed"`
	Replicas    int64                              `json:"replicas"`
	StatusItems []interpreter.AggregatedStatusItem `json:"statusItems"`
	Want        json.RawMessage                    `json:"want"`
	Error       string                             `json:"error"`
	Prints      []string                           `json:"prints"`
}

// TestScripts runs every case of testdata/*.yaml.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	e := New()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			for _, tc := range loadCases(t, file) {
				t.Run(tc.Name, func(t *testing.T) { tc.run(t, e) })
			}
		})
	}
}

func loadCases(t *testing.T, file string) []scriptCase {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var cases []scriptCase
	require.NoError(t, yaml.Unmarshal(data, &cases), file)
	return cases
}

func (tc scriptCase) run(t *testing.T, e *Engine) {
	s, err := e.Compile(tc.Name, tc.Script)
	require.NoError(t, err)
	var prints []string
	ctx := ContextWithPrint(context.Background(), func(line string) { prints = append(prints, line) })
	resp, err := e.Run(ctx, s, interpreter.Request{
		Operation:       tc.Operation,
		Object:          object(t, tc.Object),
		ObservedObject:  object(t, tc.Observed),
		DesiredReplicas: tc.Replicas,
		StatusItems:     tc.StatusItems,
	})
	if tc.Error != "" {
		require.Error(t, err)
		assert.Equal(t, tc.Error, err.Error())
		return
	}
	require.NoError(t, err)
	got, err := json.Marshal(resp.Results())
	require.NoError(t, err)
	assert.JSONEq(t, string(tc.Want), string(got))
	assert.Equal(t, tc.Prints, prints)
}

// object decodes a case's object as Kubernetes does (whole numbers as int64);
// an absent object is an empty one.
func object(t *testing.T, raw json.RawMessage) *unstructured.Unstructured {
	t.Helper()
	m := map[string]any{}
	if len(raw) > 0 {
		require.NoError(t, utiljson.Unmarshal(raw, &m))
	}
	return &unstructured.Unstructured{Object: m}
}
