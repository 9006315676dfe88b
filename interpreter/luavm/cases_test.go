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
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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

// hook is one compiled script as an interpreter.Interpreter, so cases run
// through interpreter.Invoke like the CLI's, and benchmarks run it beside
// the built-in handlers.
type hook struct {
	e *Engine
	s *Script
}

func (h hook) HookEnabled(schema.GroupVersionKind, interpreter.Operation) bool { return true }
func (h hook) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	return h.e.GetReplicas(ctx, h.s, obj)
}
func (h hook) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, n int64) (*unstructured.Unstructured, error) {
	return h.e.ReviseReplica(ctx, h.s, obj, n)
}
func (h hook) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	return h.e.GetComponents(ctx, h.s, obj)
}
func (h hook) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return h.e.Retain(ctx, h.s, desired, observed)
}
func (h hook) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	return h.e.AggregateStatus(ctx, h.s, obj, items)
}
func (h hook) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return h.e.ReflectStatus(ctx, h.s, obj)
}
func (h hook) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	return h.e.InterpretHealth(ctx, h.s, obj)
}
func (h hook) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	return h.e.GetDependencies(ctx, h.s, obj)
}

var _ interpreter.Interpreter = hook{}

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
	resp, err := interpreter.Invoke(ctx, hook{e, s}, interpreter.Request{
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
