package luavm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Finding is something a script does that does not fail to compile here
// but fails at run time, or on Karmada: a global it reads that nothing
// sets, a module Karmada's Lua VM does not have.
type Finding struct {
	Line    int // the script's line, from 1
	Message string
}

func (f Finding) String() string { return fmt.Sprintf("Lua line %d: %s", f.Line, f.Message) }

// sandboxGlobals are the globals every call starts with (see newState).
var sandboxGlobals = append([]string{"_G", "print", "require", "pairs", "ipairs", "string", "table", "math", "os"}, baseFunctions...)

// karmadaModules are the modules Karmada's Lua VM lets require load.
var karmadaModules = []string{"kube"}

// Lint reads a script and returns its findings in line order: each global
// it reads that it never assigns and the sandbox does not hold (a module
// used without `local kube = require("kube")`, a misspelt name), and each
// require of a module Karmada's VM does not have (json), where the script
// would fail. globals are further names the script's calls are given
// (the obj of a chunk script, RunChunk). The error is the script's syntax
// error.
func Lint(name, source string, globals ...string) ([]Finding, error) {
	chunk, err := parse.Parse(strings.NewReader(source), name)
	if err != nil {
		return nil, err
	}
	l := &linter{assigned: map[string]bool{}, read: map[string]int{}}
	l.block(chunk, newScope(nil))
	var findings []Finding
	for global, line := range l.read {
		if !l.assigned[global] && !slices.Contains(sandboxGlobals, global) && !slices.Contains(globals, global) {
			msg := fmt.Sprintf("global %q is read but never assigned, and the sandbox has none", global)
			if _, module := builtinModules[global]; module {
				msg += fmt.Sprintf(" (local %s = require(%q)?)", global, global)
			}
			findings = append(findings, Finding{Line: line, Message: msg})
		}
	}
	findings = append(findings, l.requires...)
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].Line != findings[j].Line {
			return findings[i].Line < findings[j].Line
		}
		return findings[i].Message < findings[j].Message
	})
	return findings, nil
}

// scope is the local names of a block and those around it.
type scope struct {
	names  map[string]bool
	parent *scope
}

func newScope(parent *scope) *scope { return &scope{names: map[string]bool{}, parent: parent} }

func (s *scope) local(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] {
			return true
		}
	}
	return false
}

// linter walks a chunk, noting global names assigned and read.
type linter struct {
	assigned map[string]bool
	read     map[string]int // the first line each global is read on
	requires []Finding
}

func (l *linter) block(stmts []ast.Stmt, s *scope) {
	for _, st := range stmts {
		l.stmt(st, s)
	}
}

func (l *linter) stmt(st ast.Stmt, s *scope) {
	switch st := st.(type) {
	case *ast.LocalAssignStmt:
		if len(st.Exprs) == 1 && len(st.Names) == 1 {
			if _, fn := st.Exprs[0].(*ast.FunctionExpr); fn {
				s.names[st.Names[0]] = true // local function f: f is in scope in its body
			}
		}
		l.exprs(st.Exprs, s)
		for _, n := range st.Names {
			s.names[n] = true
		}
	case *ast.AssignStmt:
		l.exprs(st.Rhs, s)
		for _, e := range st.Lhs {
			l.target(e, s)
		}
	case *ast.FuncCallStmt:
		l.expr(st.Expr, s)
	case *ast.DoBlockStmt:
		l.block(st.Stmts, newScope(s))
	case *ast.WhileStmt:
		l.expr(st.Condition, s)
		l.block(st.Stmts, newScope(s))
	case *ast.RepeatStmt:
		inner := newScope(s)
		l.block(st.Stmts, inner)
		l.expr(st.Condition, inner) // until sees the body's locals
	case *ast.IfStmt:
		l.expr(st.Condition, s)
		l.block(st.Then, newScope(s))
		l.block(st.Else, newScope(s))
	case *ast.NumberForStmt:
		l.exprs([]ast.Expr{st.Init, st.Limit, st.Step}, s)
		inner := newScope(s)
		inner.names[st.Name] = true
		l.block(st.Stmts, inner)
	case *ast.GenericForStmt:
		l.exprs(st.Exprs, s)
		inner := newScope(s)
		for _, n := range st.Names {
			inner.names[n] = true
		}
		l.block(st.Stmts, inner)
	case *ast.FuncDefStmt:
		if st.Name.Func != nil {
			l.target(st.Name.Func, s)
		} else {
			l.expr(st.Name.Receiver, s)
		}
		l.function(st.Func, s, st.Name.Method != "")
	case *ast.ReturnStmt:
		l.exprs(st.Exprs, s)
	}
}

// target notes an assignment to e.
func (l *linter) target(e ast.Expr, s *scope) {
	if id, ok := e.(*ast.IdentExpr); ok {
		if !s.local(id.Value) {
			l.assigned[id.Value] = true
		}
		return
	}
	l.expr(e, s)
}

func (l *linter) function(f *ast.FunctionExpr, s *scope, method bool) {
	inner := newScope(s)
	if method {
		inner.names["self"] = true
	}
	if f.ParList == nil {
		l.block(f.Stmts, inner)
		return
	}
	for _, n := range f.ParList.Names {
		inner.names[n] = true
	}
	l.block(f.Stmts, inner)
}

func (l *linter) exprs(es []ast.Expr, s *scope) {
	for _, e := range es {
		l.expr(e, s)
	}
}

func (l *linter) expr(e ast.Expr, s *scope) {
	switch e := e.(type) {
	case nil:
	case *ast.IdentExpr:
		if _, seen := l.read[e.Value]; !seen && !s.local(e.Value) {
			l.read[e.Value] = e.Line()
		}
	case *ast.AttrGetExpr:
		l.exprs([]ast.Expr{e.Object, e.Key}, s)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			l.exprs([]ast.Expr{f.Key, f.Value}, s)
		}
	case *ast.FuncCallExpr:
		l.exprs([]ast.Expr{e.Func, e.Receiver}, s)
		l.exprs(e.Args, s)
		l.require(e, s)
	case *ast.LogicalOpExpr:
		l.exprs([]ast.Expr{e.Lhs, e.Rhs}, s)
	case *ast.RelationalOpExpr:
		l.exprs([]ast.Expr{e.Lhs, e.Rhs}, s)
	case *ast.StringConcatOpExpr:
		l.exprs([]ast.Expr{e.Lhs, e.Rhs}, s)
	case *ast.ArithmeticOpExpr:
		l.exprs([]ast.Expr{e.Lhs, e.Rhs}, s)
	case *ast.UnaryMinusOpExpr:
		l.expr(e.Expr, s)
	case *ast.UnaryNotOpExpr:
		l.expr(e.Expr, s)
	case *ast.UnaryLenOpExpr:
		l.expr(e.Expr, s)
	case *ast.FunctionExpr:
		l.function(e, s, false)
	}
}

// require notes a call require("name") of a module Karmada's VM lacks.
func (l *linter) require(call *ast.FuncCallExpr, s *scope) {
	fn, ok := call.Func.(*ast.IdentExpr)
	if !ok || fn.Value != "require" || s.local("require") || len(call.Args) != 1 {
		return
	}
	arg, ok := call.Args[0].(*ast.StringExpr)
	if !ok || slices.Contains(karmadaModules, arg.Value) {
		return
	}
	msg := fmt.Sprintf("require(%q): Karmada's Lua VM has no module %q, so the script fails there", arg.Value, arg.Value)
	if _, here := builtinModules[arg.Value]; !here {
		msg = fmt.Sprintf("require(%q): no such module (require loads %s)", arg.Value, strings.Join(sortedKeys(builtinModules), ", "))
	}
	l.requires = append(l.requires, Finding{Line: call.Line(), Message: msg})
}
