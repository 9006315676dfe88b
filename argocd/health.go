package argocd

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// HealthStatusCode is an Argo CD health status.
type HealthStatusCode string

// The statuses a health script may return (case-sensitive).
const (
	Healthy     HealthStatusCode = "Healthy"
	Progressing HealthStatusCode = "Progressing"
	Degraded    HealthStatusCode = "Degraded"
	Suspended   HealthStatusCode = "Suspended"
	Missing     HealthStatusCode = "Missing"
	Unknown     HealthStatusCode = "Unknown"
)

var statuses = []HealthStatusCode{Healthy, Progressing, Degraded, Suspended, Missing, Unknown}

// InvalidStatusMessage is the message of the Unknown health that a script
// returning any other status gets, as on Argo CD.
const InvalidStatusMessage = "Lua returned an invalid health status"

// HealthStatus is what a health script says of an object. The empty
// health (no status) is Argo CD's "no opinion".
type HealthStatus struct {
	Status  HealthStatusCode `json:"status,omitempty"`
	Message string           `json:"message,omitempty"`
}

// Health runs the kind's health script on obj and returns the health as
// Argo CD reads the script's result: the last value returned; a table
// with one of the six statuses gives it and its message; any other
// status, or none, gives Unknown with InvalidStatusMessage; nil, an
// empty table or a status or message that is not a string give the empty
// health; any other value is an error. The error of a kind without a
// health script matches ErrNoScript; a script's error is an
// *interpreter.ScriptError, which Argo CD would show as Unknown with the
// error's text.
func (in *Interpreter) Health(ctx context.Context, obj *unstructured.Unstructured) (*HealthStatus, error) {
	s := in.c.HealthScript(obj.GroupVersionKind().GroupKind())
	if s == nil {
		return nil, fmt.Errorf("%w: no health check for %s", ErrNoScript, Key(obj.GroupVersionKind().GroupKind()))
	}
	res, err := in.run(ctx, s, interpreter.InterpretHealth, obj, nil, true)
	if err != nil {
		return nil, err
	}
	return healthOf(s, res.Type, res.Value)
}

func healthOf(s *Script, typ string, v any) (*HealthStatus, error) {
	switch typ {
	case "nil":
		return &HealthStatus{}, nil
	case "table":
	default:
		return nil, notTable(s, typ)
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 { // Argo CD writes an empty table as [], which no struct decodes from
		return &HealthStatus{}, nil
	}
	status, statusOK := m["status"].(string)
	message, messageOK := m["message"].(string)
	if (!statusOK && m["status"] != nil) || (!messageOK && m["message"] != nil) {
		return &HealthStatus{}, nil
	}
	if !slices.Contains(statuses, HealthStatusCode(status)) {
		return &HealthStatus{Status: Unknown, Message: InvalidStatusMessage}, nil
	}
	return &HealthStatus{Status: HealthStatusCode(status), Message: message}, nil
}
