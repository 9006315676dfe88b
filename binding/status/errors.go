package status

import (
	"errors"
	"strings"
)

// Karmada's errors for a Work it cannot read, with its texts; test them
// with errors.Is.
var (
	// ErrNotExecutionSpace: the Work's namespace does not start with
	// karmada-es-, so it names no member cluster.
	ErrNotExecutionSpace = errors.New("the execution space name is in wrong format")
	// ErrNoManifest: none of the Work's manifests is the binding's
	// spec.resource.
	ErrNoManifest = errors.New("no such manifest exist")
)

// WorkError is the failure to fold one Work into the binding's
// aggregatedStatus. It names the binding, the Work and, when the Work's
// namespace names one, the cluster.
type WorkError struct {
	Binding string // namespace/name, or name; "" when not given
	Work    string // namespace/name
	Cluster string // "" when the namespace names no cluster
	Err     error
}

func (e *WorkError) Error() string {
	var b strings.Builder
	if e.Binding != "" {
		b.WriteString("binding " + e.Binding + ": ")
	}
	b.WriteString("work " + e.Work)
	if e.Cluster != "" {
		b.WriteString(" (cluster " + e.Cluster + ")")
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *WorkError) Unwrap() error { return e.Err }

// TemplateError is the failure of the AggregateStatus hook on the
// binding's resource template.
type TemplateError struct {
	Binding  string // namespace/name, or name; "" when not given
	Template string // "Kind namespace/name"
	Err      error
}

func (e *TemplateError) Error() string {
	prefix := ""
	if e.Binding != "" {
		prefix = "binding " + e.Binding + ": "
	}
	return prefix + "aggregate status of " + e.Template + ": " + e.Err.Error()
}

func (e *TemplateError) Unwrap() error { return e.Err }
