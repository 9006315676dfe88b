package status_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/internal/sharedcases"
	"github.com/luainterp/luainterp/interpreter"
)

// caseDirs returns the case folders of an area of the failover
// conformance samples produced by Karmada (../shared/conformance/failover,
// or $LUAINTERP_SHARED_CONFORMANCE/failover; the test skips without them).
func caseDirs(t *testing.T, area string) []string {
	t.Helper()
	return sharedcases.Cases(t, "failover", area)
}

// readYAML decodes a case file into generic JSON values.
func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, yaml.Unmarshal(data, &v))
	return v
}

// asJSON turns v into the generic JSON values the expected files decode to.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

// TestHealthAggregationConformance is fact 12 of the failover spec: every
// health-aggregation case's Works and resource, assembled, give its
// aggregatedStatus, or an error containing Karmada's.
func TestHealthAggregationConformance(t *testing.T) {
	for _, dir := range caseDirs(t, "health-aggregation") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			items, err := assembleCase(dir)
			want := readYAML(t, filepath.Join(dir, "expected.yaml"))
			if msg, ok := want["error"].(string); ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want["aggregatedStatus"], asJSON(t, items))
		})
	}
}

// assembleCase reads a health-aggregation case's inputs and assembles them.
func assembleCase(dir string) ([]interpreter.AggregatedStatusItem, error) {
	r := &input.Reader{}
	docs, err := r.Objects(filepath.Join(dir, "works.yaml"))
	if err != nil {
		return nil, err
	}
	works, err := input.Works(docs)
	if err != nil {
		return nil, err
	}
	if docs, err = r.Objects(filepath.Join(dir, "resource.yaml")); err != nil {
		return nil, err
	}
	ref, err := input.Resource(docs)
	if err != nil {
		return nil, err
	}
	return status.Assemble("", ref, works)
}

// TestHealthMappingConformance is fact 10: the interpreter's answer of
// every health-mapping case (a stub with the case's hook, result and
// error) gives its health and events.
func TestHealthMappingConformance(t *testing.T) {
	for _, dir := range caseDirs(t, "health-mapping") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in := readYAML(t, filepath.Join(dir, "input.yaml"))
			stub := stubHealth(t, in["interpreter"].(map[string]any))
			obj := &unstructured.Unstructured{Object: in["observedObject"].(map[string]any)}
			health, event := status.Health(context.Background(), stub, obj)
			want := readYAML(t, filepath.Join(dir, "expected.yaml"))
			assert.Equal(t, want["health"], string(health))
			var events []any
			if event != nil {
				events = append(events, event.String())
			}
			assert.Equal(t, want["events"], asJSON(t, events))
		})
	}
}

// stubHealth is an interpreter whose InterpretHealth hook is as a
// health-mapping case describes it.
func stubHealth(t *testing.T, spec map[string]any) interpreter.Interpreter {
	t.Helper()
	enabled, _ := spec["hookEnabled"].(bool)
	result, _ := spec["interpretHealthResult"].(bool)
	var hookErr error
	if msg, ok := spec["interpretHealthError"].(string); ok {
		hookErr = errors.New(msg)
	}
	return hooks{enabled: enabled, fn: func(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
		require.Equal(t, interpreter.InterpretHealth, req.Operation)
		return interpreter.Response{Operation: req.Operation, Healthy: result}, hookErr
	}}
}

// hooks is an interpreter that has a hook for every kind when enabled and
// answers with fn.
type hooks struct {
	enabled bool
	fn      interpreter.Func
}

func (h hooks) HookEnabled(schema.GroupVersionKind, interpreter.Operation) bool { return h.enabled }

func (h hooks) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	return h.fn(ctx, req)
}
