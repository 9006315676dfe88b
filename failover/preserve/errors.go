package preserve

import (
	"errors"
	"fmt"

	"github.com/luainterp/luainterp/binding/api"
)

// ErrLimit is matched (errors.Is) by the errors of a build refused by a
// limit: the status, one value, or the work a template would do is too
// large.
var ErrLimit = errors.New("preserved label state limit exceeded")

// RuleError is the failure of one rule. Its message is Karmada's, unchanged
// (the reconcile error users see); Index and Rule say which rule failed.
type RuleError struct {
	Index int // the rule's position, from 0
	Rule  api.StatePreservationRule
	Err   error
}

func (e *RuleError) Error() string { return e.Err.Error() }

func (e *RuleError) Unwrap() error { return e.Err }

// Describe names the rule before the message, for logs and events.
func (e *RuleError) Describe() string {
	return fmt.Sprintf("state preservation rule %d (aliasLabelName %q, jsonPath %q): %v",
		e.Index, e.Rule.AliasLabelName, e.Rule.JSONPath, e.Err)
}

// limitError is a build refused by a limit.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

func (e *limitError) Is(target error) bool { return target == ErrLimit }

func limitf(format string, args ...any) error {
	return &limitError{msg: fmt.Sprintf(format, args...)}
}
