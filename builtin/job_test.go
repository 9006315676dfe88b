package builtin

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// TestJobConditionsCarryTheAggregationTime checks the timestamps the test
// cases leave out: both times of an added condition are the time of the
// aggregation.
func TestJobConditionsCarryTheAggregationTime(t *testing.T) {
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	now = func() metav1.Time { return metav1.NewTime(at) }
	t.Cleanup(func() { now = metav1.Now })

	job := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": "etl"},
	}}
	items := []interpreter.AggregatedStatusItem{{
		ClusterName: "m1",
		Status:      &runtime.RawExtension{Raw: []byte(`{"failed":1,"conditions":[{"type":"Failed","status":"True"}]}`)},
	}}
	out, err := interpreter.Typed{Interpreter: New()}.AggregateStatus(context.Background(), job, items)
	require.NoError(t, err)
	conditions, _, err := unstructured.NestedSlice(out.Object, "status", "conditions")
	require.NoError(t, err)
	require.Len(t, conditions, 1)
	condition := conditions[0].(map[string]any)
	assert.Equal(t, "2025-03-04T05:06:07Z", condition["lastProbeTime"])
	assert.Equal(t, "2025-03-04T05:06:07Z", condition["lastTransitionTime"])
}
