package interpreter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestNewRequest(t *testing.T) {
	desired := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "desired"}}}
	observed := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "observed"}}}
	name := func(u *unstructured.Unstructured) string {
		if u == nil {
			return "none"
		}
		return u.GetName()
	}
	tests := []struct {
		op                 Operation
		desired, observed  *unstructured.Unstructured
		object, observedTo string
	}{
		{InterpretHealth, desired, observed, "observed", "none"},
		{InterpretHealth, desired, nil, "desired", "none"},
		{ReviseReplica, desired, observed, "observed", "none"},
		{InterpretReplica, nil, nil, "none", "none"},
		{AggregateStatus, desired, observed, "desired", "none"},
		{AggregateStatus, nil, observed, "observed", "none"},
		{Retain, desired, observed, "desired", "observed"},
		{Retain, nil, observed, "none", "observed"},
	}
	for _, tt := range tests {
		t.Run(tt.op.String()+" of "+name(tt.desired)+" and "+name(tt.observed), func(t *testing.T) {
			req := NewRequest(tt.op, tt.desired, tt.observed)
			assert.Equal(t, tt.op, req.Operation)
			assert.Equal(t, tt.object, name(req.Object))
			assert.Equal(t, tt.observedTo, name(req.ObservedObject))
		})
	}
}
