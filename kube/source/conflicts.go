package source

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
)

// reportConflicts notes the conflicts of the layer just installed: a
// Warning Event (reason Conflict) on each customization object that
// defines an operation another one answers, naming the one used, when
// what it loses changed; and their number in
// luainterp_kube_objects{state="conflicting"}. A customization of a file
// that loses is only logged (logWarnings).
func (s *Source) reportConflicts(conflicts []customization.Conflict) {
	losses := map[string][]string{}
	for _, c := range conflicts {
		losses[c.Unused.Name] = append(losses[c.Unused.Name], fmt.Sprintf("%s of %s: %q defines it too and is used",
			c.Operation.CustomizationKey(), interpreter.GVKString(c.Target), c.Used.Name))
	}
	type due struct {
		ref     *corev1.ObjectReference
		message string
	}
	var told []due
	s.mu.Lock()
	now := make(map[string]string, len(losses))
	for name, messages := range losses {
		o := s.customizations[name]
		if o == nil || !o.loaded || !isObjects(o.good, conflicts, name) {
			continue
		}
		slices.Sort(messages)
		message := "not used for " + strings.Join(messages, "; ") + " (customizations apply in name order, the first wins)"
		now[name] = message
		if s.conflicts[name] != message {
			told = append(told, due{o.ref, message})
		}
	}
	s.conflicts, s.lastConflicts = now, conflicts
	s.o.metrics.objects.WithLabelValues(CustomizationKind, "conflicting").Set(float64(len(now)))
	s.mu.Unlock()
	for _, d := range told {
		s.o.log.Warn("customization conflict: "+d.message, "name", d.ref.Name)
		s.event(d.ref, corev1.EventTypeWarning, ReasonConflict, d.message)
	}
}

// isObjects reports whether the unused customization named name in
// conflicts is the API object's good version, not a file's of its name.
func isObjects(good *customization.Set, conflicts []customization.Conflict, name string) bool {
	for _, c := range conflicts {
		if c.Unused.Name == name {
			return len(good.Customizations) == 1 && good.Customizations[0] == c.Unused
		}
	}
	return false
}

// Conflicts returns the operations two customizations define, as the
// layer last installed resolved them: customizations apply in name
// order, the first defining an operation answers it.
func (s *Source) Conflicts() []customization.Conflict {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastConflicts
}

// Reference returns a reference to the customization object named name,
// for an Event on it (the controller's HookFailed); false when the API
// server has none of that name.
func (s *Source) Reference(name string) (*corev1.ObjectReference, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.customizations[name]
	if o == nil || o.ref == nil {
		return nil, false
	}
	return o.ref, true
}
