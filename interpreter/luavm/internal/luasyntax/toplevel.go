package luasyntax

import (
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// TopLevel reads a chunk's top level without running it: the globals it
// sets, and whether running it could do anything else. Running it
// cannot fail, loop or call a script's function when every statement
// is one of
//
//	function name(...) ... end            (a global, or a local declared before)
//	function t.name(...) ... end          (t a local table built by the chunk)
//	local function name(...) ... end
//	local a, b = e1, e2
//	a, b = e1, e2                         (globals, or locals)
//
// and every expression e is a constant (nil, a boolean, a string, a
// number or arithmetic on numbers), a function, a name, a table of such expressions
// under constant keys, `x and y`, `x or y` or `not x` of such
// expressions, a member of a standard library or module under a constant
// key (string.format, kube.resourceAdd), or require of a module the
// engine has ("kube", "json", "string", ...). Anything else (a loop, a
// call, an operator that may raise, `...`) leaves it undecided.
type TopLevel struct {
	safe      bool
	functions map[string]bool // the globals set, and whether their last value is a function
	locals    map[string]bool // declared; true for the tables the chunk built
	modules   map[string]bool // locals bound to a module or library
	shadowed  map[string]bool // libraries and require, set as globals or declared local
	known     func(module string) bool
	libraries []string
}

// ReadTopLevel reads chunk's top level. libraries are the standard
// libraries its globals hold (string, table, ...); known tells whether
// require can load a module.
func ReadTopLevel(chunk []ast.Stmt, libraries []string, known func(module string) bool) *TopLevel {
	t := &TopLevel{safe: true, functions: map[string]bool{}, locals: map[string]bool{}, modules: map[string]bool{}, shadowed: map[string]bool{},
		known: known, libraries: libraries}
	for _, stmt := range chunk {
		if t.safe = t.statement(stmt); !t.safe {
			break
		}
	}
	return t
}

// Functions returns the globals the chunk sets to a function, sorted.
func (t *TopLevel) Functions() []string {
	var names []string
	for name, isFunction := range t.functions {
		if isFunction {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Defines returns whether the chunk defines fn as a global function,
// and whether its top level says so without running it.
func (t *TopLevel) Defines(fn string) (defined, known bool) {
	if !t.safe {
		return false, false
	}
	isFunction, set := t.functions[fn]
	if set && !isFunction {
		return false, false // set to another value: running tells its type
	}
	return isFunction, true
}

func (t *TopLevel) statement(stmt ast.Stmt) bool {
	switch s := stmt.(type) {
	case *ast.FuncDefStmt:
		if s.Name.Receiver != nil {
			return false
		}
		return t.assign(s.Name.Func, s.Func)
	case *ast.LocalAssignStmt:
		if !t.all(s.Exprs) {
			return false
		}
		for i, name := range s.Names {
			t.locals[name], t.modules[name] = false, false
			t.shadowed[name] = true
			if i < len(s.Exprs) {
				_, isTable := s.Exprs[i].(*ast.TableExpr)
				t.locals[name], t.modules[name] = isTable, t.isRequire(s.Exprs[i]) || t.isLibrary(s.Exprs[i])
			}
		}
		return true
	case *ast.AssignStmt:
		if !t.all(s.Rhs) {
			return false
		}
		for i, lhs := range s.Lhs {
			var value ast.Expr = &ast.NilExpr{}
			if i < len(s.Rhs) {
				value = s.Rhs[i]
			}
			if !t.assign(lhs, value) {
				return false
			}
		}
		return true
	}
	return false
}

// assign notes target = value, where value is safe; it returns false
// when the target is not a name nor a constant key of a table the chunk
// built.
func (t *TopLevel) assign(target, value ast.Expr) bool {
	switch lhs := target.(type) {
	case *ast.IdentExpr:
		if _, local := t.locals[lhs.Value]; local {
			t.locals[lhs.Value], t.modules[lhs.Value] = false, false
			return true
		}
		_, isFunction := value.(*ast.FunctionExpr)
		t.functions[lhs.Value] = isFunction
		t.shadowed[lhs.Value] = true
		return true
	case *ast.AttrGetExpr:
		object, ok := lhs.Object.(*ast.IdentExpr)
		return ok && t.locals[object.Value] && isConstantKey(lhs.Key)
	}
	return false
}

func (t *TopLevel) all(exprs []ast.Expr) bool {
	for _, e := range exprs {
		if !t.expr(e) {
			return false
		}
	}
	return true
}

// expr returns whether evaluating e cannot fail, loop or call code of
// the script.
func (t *TopLevel) expr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.NumberExpr, *ast.StringExpr, *ast.FunctionExpr, *ast.IdentExpr:
		return true
	case *ast.UnaryMinusOpExpr, *ast.ArithmeticOpExpr:
		return isNumber(e)
	case *ast.UnaryNotOpExpr:
		return t.expr(e.Expr)
	case *ast.LogicalOpExpr:
		return t.expr(e.Lhs) && t.expr(e.Rhs)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Key != nil && !isConstantKey(f.Key) || !t.expr(f.Value) {
				return false
			}
		}
		return true
	case *ast.AttrGetExpr:
		object, ok := e.Object.(*ast.IdentExpr)
		return ok && isConstantKey(e.Key) && (t.locals[object.Value] || t.modules[object.Value] || t.isLibrary(object))
	case *ast.FuncCallExpr:
		return t.isRequire(e)
	}
	return false
}

// isLibrary returns whether e names a standard library the chunk has not
// shadowed.
func (t *TopLevel) isLibrary(e ast.Expr) bool {
	id, ok := e.(*ast.IdentExpr)
	return ok && slices.Contains(t.libraries, id.Value) && !t.shadowed[id.Value]
}

// isRequire returns whether e is require("m") of a module the engine has.
func (t *TopLevel) isRequire(e ast.Expr) bool {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok || call.Receiver != nil || len(call.Args) != 1 || t.shadowed["require"] {
		return false
	}
	fn, ok := call.Func.(*ast.IdentExpr)
	name, isString := call.Args[0].(*ast.StringExpr)
	return ok && fn.Value == "require" && isString && t.known(name.Value)
}

// isNumber returns whether e is arithmetic on number literals, which
// cannot raise (a division by zero is inf or nan).
func isNumber(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.NumberExpr:
		return true
	case *ast.UnaryMinusOpExpr:
		return isNumber(e.Expr)
	case *ast.ArithmeticOpExpr:
		return isNumber(e.Lhs) && isNumber(e.Rhs)
	}
	return false
}

// isConstantKey returns whether a table key cannot raise: a string or a
// number (a literal is never NaN).
func isConstantKey(e ast.Expr) bool {
	switch e.(type) {
	case *ast.StringExpr, *ast.NumberExpr:
		return true
	}
	return false
}
