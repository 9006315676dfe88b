package customization

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// Verdict is the outcome of checking one rule.
type Verdict int

// The verdicts, as `luainterp interpret --check` prints them.
const (
	Pass  Verdict = iota // the script compiles and defines its function
	Unset                // the customization has no script for the key
	Fail                 // something is wrong; Rule.Err says what
	Warn                 // the script passes, but the linter found something; Rule.Warnings says what
)

func (v Verdict) String() string {
	switch v {
	case Pass:
		return "PASS"
	case Unset:
		return "UNSET"
	case Fail:
		return "ERROR"
	case Warn:
		return "WARN"
	}
	return "Verdict(?)"
}

// Rule is the verdict on one key of one customization, or on a whole
// document or file when Key is "".
type Rule struct {
	Position
	Key     string // a key of spec.customizations; "" for the document
	Verdict Verdict
	Err     error // an ErrorList, for Fail
	// Warnings are the findings of luavm.Lint on the script, located in
	// its file, for Warn.
	Warnings ErrorList
}

// Check validates every customization of set on engine, within ctx (luavm.Vet: what
// it compiles is not kept, and a chunk runs only when its syntax tree
// cannot tell whether it defines its function) and returns one
// Rule per customization and key of spec.customizations, in name and key
// order. A script that compiles and defines its function is linted
// (luavm.Lint): its findings make the rule Warn instead of Pass. Problems that belong to no key (a missing target, an unreadable
// file, an unknown key) get a Rule of their own, listed before the
// customization's keys. A key a customization earlier in name order
// defines for the same target fails, with admission's message (see
// Overlaps).
func Check(ctx context.Context, engine *luavm.Engine, set *Set, opts ...CheckOption) []Rule {
	var o checkOptions
	for _, opt := range opts {
		opt(&o)
	}
	var errs ErrorList
	errors.As(set.Err(), &errs)
	byDoc := map[Position][]*Error{}
	for _, e := range errs {
		byDoc[docOf(e.Position)] = append(byDoc[docOf(e.Position)], e)
	}

	var rules []Rule
	claimed := map[Position]bool{}
	for i, c := range set.Customizations {
		doc := docOf(c.Position)
		claimed[doc] = true
		// As admission would refuse it, after the ones before it.
		overlaps := Overlaps(c, set.Customizations[:i])
		rules = append(rules, checkCustomization(ctx, engine, c, append(byDoc[doc], overlaps...), o)...)
	}
	var orphans []Rule // errors of documents that hold no customization
	for _, e := range errs {
		if !claimed[docOf(e.Position)] {
			orphans = append(orphans, Rule{Position: e.Position, Key: e.Key, Verdict: Fail, Err: ErrorList{e}})
		}
	}
	return append(orphans, rules...)
}

// checkCustomization returns the rules of one customization, given the
// loading errors of its document.
func checkCustomization(ctx context.Context, engine *luavm.Engine, c *Customization, errs []*Error, o checkOptions) []Rule {
	byKey := map[string]ErrorList{}
	var rules []Rule
	for _, e := range errs {
		if _, known := interpreter.OperationForKey(e.Key); !known {
			rules = append(rules, Rule{Position: c.Position, Key: e.Key, Verdict: Fail, Err: ErrorList{e}})
			continue
		}
		byKey[e.Key] = append(byKey[e.Key], e)
	}
	for _, op := range interpreter.Operations() {
		r := Rule{Position: c.Position, Key: op.CustomizationKey(), Verdict: Unset}
		if errs := byKey[r.Key]; errs != nil {
			r.Verdict, r.Err = Fail, errs
		} else if _, ok := c.Script(op); ok {
			r.Verdict = Pass
			if err := engine.Vet(ctx, c.scripts[op].Name, c.scripts[op].Source, op); err != nil {
				r.Verdict, r.Err = Fail, ErrorList{scriptErr(c, c.scripts[op], err)}
			} else if r.Warnings = lint(c, op, o.fields); len(r.Warnings) > 0 {
				r.Verdict = Warn
			}
		}
		rules = append(rules, r)
	}
	return rules
}

// docOf returns the position of a document, without the name.
func docOf(p Position) Position {
	p.Name = ""
	return p
}

// lint returns the linter's findings on c's script for op, located in its
// file.
func lint(c *Customization, op interpreter.Operation, fields func(schema.GroupVersionKind) luavm.FieldChecker) ErrorList {
	s := c.scripts[op]
	var check luavm.FieldChecker
	if fields != nil {
		check = fields(c.Target)
	}
	findings, err := luavm.LintFields(s.Name, s.Source, check)
	if err != nil {
		return nil // the script compiled, so it parses
	}
	var list ErrorList
	for _, f := range findings {
		list = append(list, atLuaLine(c, s, f.Line, errors.New(f.String())))
	}
	return list
}

// CheckOption changes what Check checks.
type CheckOption func(*checkOptions)

type checkOptions struct {
	fields func(schema.GroupVersionKind) luavm.FieldChecker
}

// WithFields makes the linter warn on each field path a script uses on its
// object that fields(target) says the customization's target lacks (see
// luavm.LintFields); fields returns nil for a kind it knows nothing of.
func WithFields(fields func(schema.GroupVersionKind) luavm.FieldChecker) CheckOption {
	return func(o *checkOptions) { o.fields = fields }
}
