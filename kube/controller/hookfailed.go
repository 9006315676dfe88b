package controller

import (
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/luainterp/luainterp/interpreter"
)

// ReasonHookFailed is the reason of the Warning Event on a
// ResourceInterpreterCustomization whose hook failed a binding's
// reconcile: the message names the binding, the error and when the
// binding is retried.
const ReasonHookFailed = "HookFailed"

// CustomizationRefs returns a reference to the ResourceInterpreterCustomization
// object named name, for an Event on it; false when there is none (a
// customization of a file, a bundled script). kube/source.Source.Reference
// is one.
type CustomizationRefs func(name string) (*corev1.ObjectReference, bool)

// WithCustomizationRefs records a HookFailed Event on the customization
// whose hook failed a binding, found with refs; without it only the
// binding gets Events.
func WithCustomizationRefs(refs CustomizationRefs) Option {
	return func(o *options) { o.customizations = refs }
}

// hookFailed records a HookFailed Event on each customization whose hook
// made the reconcile of key fail with err.
func (c *Controller) hookFailed(key Key, err error) {
	if c.o.customizations == nil || c.recorder == nil {
		return
	}
	told := map[string]bool{}
	for _, se := range scriptErrors(err) {
		name := customizationName(se.Customization)
		ref, ok := c.o.customizations(name)
		if !ok || told[name] {
			continue
		}
		told[name] = true
		message := fmt.Sprintf("%s: %v; retried in %s (back-off per binding, at most %s)",
			key, se, c.backoff.waiting(key).Round(time.Millisecond), c.o.retry.Max)
		const maxMessage = 1024
		if len(message) > maxMessage {
			message = message[:maxMessage-3] + "..."
		}
		c.recorder.Event(ref, corev1.EventTypeWarning, ReasonHookFailed, message)
	}
}

// customizationName is the customization of a script named
// CUSTOMIZATION/KEY (customization.Script.Name).
func customizationName(script string) string {
	name, _, _ := strings.Cut(script, "/")
	return name
}

// scriptErrors returns the *interpreter.ScriptErrors in err: an
// aggregate of the clusters' failures, or one error.
func scriptErrors(err error) []*interpreter.ScriptError {
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		var out []*interpreter.ScriptError
		for _, e := range agg.Errors() {
			out = append(out, scriptErrors(e)...)
		}
		return out
	}
	var se *interpreter.ScriptError
	if errors.As(err, &se) {
		return []*interpreter.ScriptError{se}
	}
	return nil
}
