package luasyntax

import (
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// Globals is what a chunk does with global names, for a linter: the
// names it reads and assigns that no local declares where it does, and
// the modules it requires.
type Globals struct {
	Read     map[string]int  // each global read, with the first line it is read on
	Assigned map[string]bool // each global assigned
	Requires []Require       // each require("name") of the global require, in the order met
	Fields   []FieldUse      // with object parameters, each field path used on one
}

// FieldUse is a field path a hook function uses on one of its object
// parameters: obj.spec.workers, obj["spec"].workers[1].name ("[]" for
// the number key of a list item).
type FieldUse struct {
	Param string   // the parameter's name
	Path  []string // the keys from the object's root
	Line  int
}

// Require is a call require("name") with a string for its argument.
type Require struct {
	Module string
	Line   int
}

// ScanGlobals walks chunk in the order of its text, with Lua's scoping
// (a local function is in scope in its body, until sees the locals of
// its repeat's body, a method has self) and returns its Globals. With
// objectParams (for each global function, the indexes of its parameters
// that hold an object), it notes the field paths used on them in
// Fields. It goes by names: a parameter assigned another value in the
// function is still taken as the object, and a path through a local
// that holds part of it is not seen.
func ScanGlobals(chunk []ast.Stmt, objectParams map[string][]int) Globals {
	l := &linter{Globals: Globals{Read: map[string]int{}, Assigned: map[string]bool{}}, objectParams: objectParams}
	l.block(chunk, newScope(nil))
	return l.Globals
}

// scope is the local names of a block and those around it.
type scope struct {
	names   map[string]bool
	objects map[string]bool // the hook function's object parameters
	parent  *scope
}

// object reports whether name is an object parameter of the hook function
// the scope is in, not hidden by a local of the same name.
func (s *scope) object(name string) bool {
	for ; s != nil; s = s.parent {
		if s.objects[name] {
			return true
		}
		if s.names[name] {
			return false
		}
	}
	return false
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
	Globals
	objectParams map[string][]int // nil: field paths are not noted
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
		if id, ok := st.Name.Func.(*ast.IdentExpr); ok && st.Name.Method == "" && s.parent == nil && l.objectParams != nil {
			l.hook(id.Value, st.Func, s)
			return
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
			l.Assigned[id.Value] = true
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
		if _, seen := l.Read[e.Value]; !seen && !s.local(e.Value) {
			l.Read[e.Value] = e.Line()
		}
	case *ast.FunctionExpr:
		l.function(e, s, false)
	default:
		if get, ok := e.(*ast.AttrGetExpr); ok && l.objectParams != nil {
			l.field(get, s)
		}
		eachChild(e, func(child ast.Expr) ast.Expr {
			l.expr(child, s)
			return child
		})
		if call, ok := e.(*ast.FuncCallExpr); ok {
			l.require(call, s)
		}
	}
}

// require notes a call require("name") of the global require.
func (l *linter) require(call *ast.FuncCallExpr, s *scope) {
	fn, ok := call.Func.(*ast.IdentExpr)
	if !ok || fn.Value != "require" || s.local("require") || len(call.Args) != 1 {
		return
	}
	if arg, ok := call.Args[0].(*ast.StringExpr); ok {
		l.Requires = append(l.Requires, Require{Module: arg.Value, Line: call.Line()})
	}
}

// hook walks a global function's body with its object parameters noted
// in its scope.
func (l *linter) hook(name string, f *ast.FunctionExpr, s *scope) {
	inner := newScope(s)
	inner.objects = map[string]bool{}
	if f.ParList != nil {
		for _, i := range l.objectParams[name] {
			if i < len(f.ParList.Names) {
				inner.objects[f.ParList.Names[i]] = true
			}
		}
		for _, n := range f.ParList.Names {
			inner.names[n] = true
		}
	}
	l.block(f.Stmts, inner)
}

// field notes the field path of e when it starts at an object parameter.
func (l *linter) field(e *ast.AttrGetExpr, s *scope) {
	var path []string
	var x ast.Expr = e
	for {
		get, ok := x.(*ast.AttrGetExpr)
		if !ok {
			break
		}
		switch key := get.Key.(type) {
		case *ast.StringExpr:
			path = append(path, key.Value)
		case *ast.NumberExpr:
			path = append(path, "[]")
		default:
			return // a key only known at run time
		}
		x = get.Object
	}
	root, ok := x.(*ast.IdentExpr)
	if !ok || !s.object(root.Value) {
		return
	}
	slices.Reverse(path)
	l.Fields = append(l.Fields, FieldUse{Param: root.Value, Path: path, Line: e.Line()})
}
