package customization

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// The apiVersion and kind of the documents this package loads.
const (
	APIVersion = "config.karmada.io/v1alpha1"
	Kind       = "ResourceInterpreterCustomization"
)

// Customization is one ResourceInterpreterCustomization: the kind it
// customizes and a Lua script per operation.
type Customization struct {
	Name     string
	Target   schema.GroupVersionKind
	Position Position // where the document is, from its first line

	scripts map[interpreter.Operation]*Script
}

// Script is the Lua script of one operation of a customization.
type Script struct {
	// Name identifies the script: "<customization>/<key>". It is the name
	// the script is compiled under, so engine errors and coverage carry it.
	Name      string
	Operation interpreter.Operation
	Source    string // the luaScript text
	// Line is the file line holding the script's first line, so Lua line n
	// is file line Line+n-1; 0 when lines do not map (a quoted JSON string).
	Line int
}

// Script returns the script c defines for op.
func (c *Customization) Script(op interpreter.Operation) (*Script, bool) {
	s := c.scripts[op]
	return s, s != nil
}

// Operations returns the operations c has a script for, in declaration order.
func (c *Customization) Operations() []interpreter.Operation {
	var ops []interpreter.Operation
	for _, op := range interpreter.Operations() {
		if c.scripts[op] != nil {
			ops = append(ops, op)
		}
	}
	return ops
}

// fileLine maps a line of s's script to its file line, 0 when unknown.
func (s *Script) fileLine(luaLine int) int {
	if s.Line == 0 || luaLine <= 0 {
		return 0
	}
	return s.Line + luaLine - 1
}

// Set is the customizations read from some files, ordered by name, with
// the warnings and errors found while reading them.
type Set struct {
	Customizations []*Customization
	Warnings       []Warning
	Conflicts      []Conflict // the operations two customizations define, in name order of the unused one
	errs           ErrorList
}

// Err returns every problem found while loading, as an ErrorList, or nil.
func (s *Set) Err() error { return s.errs.err() }

// Lookup returns the customization named name.
func (s *Set) Lookup(name string) (*Customization, bool) {
	i, ok := slices.BinarySearchFunc(s.Customizations, name, func(c *Customization, name string) int {
		return strings.Compare(c.Name, name)
	})
	if !ok {
		return nil, false
	}
	return s.Customizations[i], true
}

// finish orders the customizations by name, reports names used twice and
// warns where two customizations define the same operation for one kind.
// Karmada merges customizations of one kind in name order, the first
// script for an operation winning; so does a Layer.
func (s *Set) finish() {
	slices.SortStableFunc(s.Customizations, func(a, b *Customization) int { return strings.Compare(a.Name, b.Name) })
	kept := s.Customizations[:0]
	for i, c := range s.Customizations {
		if i > 0 && c.Name == s.Customizations[i-1].Name && c.Name != "" {
			first := s.Customizations[i-1]
			s.errs = append(s.errs, &Error{Position: c.Position, Field: "metadata.name",
				Err: fmt.Errorf("duplicate name, already used by %s", first.Position)})
			continue
		}
		kept = append(kept, c)
	}
	s.Customizations = kept

	s.Conflicts = conflicts(s.Customizations)
	for _, c := range s.Conflicts {
		s.Warnings = append(s.Warnings, Warning{Position: c.Unused.Position, Message: c.String()})
	}
}

// hookKey identifies a hook: an operation on one kind.
type hookKey struct {
	gvk schema.GroupVersionKind
	op  interpreter.Operation
}
