package overrides

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
)

// Error is the failure of one overrider: which policy, where in it, and why.
type Error struct {
	Policy PolicyRef
	Field  string // the failing overrider in the policy, e.g. spec.overrideRules[1].overriders.plaintext
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s: %v", e.Policy, e.Field, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// overriderError locates a failure within one rule's overriders.
type overriderError struct {
	field string
	err   error
}

func itemError(field string, i int, err error) *overriderError {
	return &overriderError{field: fmt.Sprintf(".%s[%d]", field, i), err: err}
}

// compiledOverriders are one rule's overriders with their patches
// prepared: the plaintext patch, and the replace of each image overrider
// with a predicate (by index; nil for the others).
type compiledOverriders struct {
	*api.Overriders
	plaintext  *objectPatch
	predicates []*objectPatch
}

func compileOverriders(o *api.Overriders) *compiledOverriders {
	c := &compiledOverriders{Overriders: o, predicates: make([]*objectPatch, len(o.ImageOverrider))}
	if len(o.Plaintext) > 0 {
		c.plaintext = newObjectPatch(plaintextOps(o.Plaintext))
	}
	for i, image := range o.ImageOverrider {
		if image.Predicate != nil {
			c.predicates[i] = newObjectPatch([]patchOp{{Op: api.OperatorReplace, Path: image.Predicate.Path}})
		}
	}
	return c
}

// applyOverriders applies one rule's overriders to obj in Karmada's order.
func applyOverriders(obj *unstructured.Unstructured, o *compiledOverriders) *overriderError {
	for i := range o.ImageOverrider {
		if err := applyImage(obj, &o.ImageOverrider[i], o.predicates[i]); err != nil {
			return itemError("imageOverrider", i, err)
		}
	}
	for i := range o.CommandOverrider {
		if err := applyCommandArgs(obj, "command", &o.CommandOverrider[i]); err != nil {
			return itemError("commandOverrider", i, err)
		}
	}
	for i := range o.ArgsOverrider {
		if err := applyCommandArgs(obj, "args", &o.ArgsOverrider[i]); err != nil {
			return itemError("argsOverrider", i, err)
		}
	}
	for i := range o.LabelsOverrider {
		if err := applyMetadata(obj, "labels", &o.LabelsOverrider[i]); err != nil {
			return itemError("labelsOverrider", i, err)
		}
	}
	for i := range o.AnnotationsOverrider {
		if err := applyMetadata(obj, "annotations", &o.AnnotationsOverrider[i]); err != nil {
			return itemError("annotationsOverrider", i, err)
		}
	}
	for i := range o.FieldOverrider {
		if err := applyField(obj, &o.FieldOverrider[i]); err != nil {
			return itemError("fieldOverrider", i, err)
		}
	}
	if o.plaintext != nil {
		if err := o.plaintext.apply(obj); err != nil {
			return &overriderError{field: ".plaintext", err: err}
		}
	}
	return nil
}
