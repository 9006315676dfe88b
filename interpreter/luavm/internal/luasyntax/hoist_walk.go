package luasyntax

import "github.com/yuin/gopher-lua/ast"

// chainWalk walks code in the order it runs, from a statement on, and
// counts (or replaces) the reads of one chain until something could
// change the chain's value (see Hoist).
type chainWalk struct {
	target  *ast.AttrGetExpr
	names   map[string]bool // the names the chain reads
	replace string          // the hidden local that takes the reads' place, "" to count them
	reads   int
	dead    bool // the chain may have changed: nothing more is counted or replaced
	budget  *int
}

// region walks s, then the statements after it in its block.
func (w *chainWalk) region(s ast.Stmt, after []ast.Stmt) {
	w.stmt(s)
	w.stmts(after)
}

func (w *chainWalk) stmts(ss []ast.Stmt) {
	for _, s := range ss {
		if w.dead {
			return
		}
		w.stmt(s)
	}
}

func (w *chainWalk) stmt(s ast.Stmt) {
	if *w.budget--; *w.budget <= 0 {
		w.dead = true
	}
	if w.dead {
		return
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, target := range s.Lhs {
			if field, ok := target.(*ast.AttrGetExpr); ok {
				field.Object = w.expr(field.Object)
				field.Key = w.expr(field.Key)
			}
		}
		w.exprs(s.Rhs)
		for _, target := range s.Lhs {
			switch target := target.(type) {
			case *ast.AttrGetExpr:
				w.dead = true // a table's field is written
			case *ast.IdentExpr:
				w.declare(target.Value)
			}
		}
	case *ast.LocalAssignStmt:
		w.exprs(s.Exprs)
		w.declare(s.Names...)
	case *ast.FuncCallStmt:
		s.Expr = w.expr(s.Expr)
	case *ast.DoBlockStmt:
		w.stmts(s.Stmts)
	case *ast.IfStmt:
		// Only one branch runs: each goes on from the condition, and the
		// chain is good after the if when neither could change it.
		s.Condition = w.expr(s.Condition)
		if w.dead {
			return
		}
		w.stmts(s.Then)
		then := w.dead
		w.dead = false
		w.stmts(s.Else)
		w.dead = w.dead || then
	case *ast.NumberForStmt:
		s.Init = w.expr(s.Init)
		s.Limit = w.expr(s.Limit)
		s.Step = w.expr(s.Step)
		w.loop(s)
	case *ast.GenericForStmt:
		w.exprs(s.Exprs)
		w.loop(s)
	case *ast.WhileStmt, *ast.RepeatStmt:
		w.loop(s)
	case *ast.ReturnStmt:
		w.exprs(s.Exprs)
	case *ast.BreakStmt:
	default: // a function definition (it assigns), a label or a goto
		w.dead = true
	}
}

// loop walks a loop's turns: only if none of them could change the
// chain, since each turn comes after the one before.
func (w *chainWalk) loop(s ast.Stmt) {
	if w.dead {
		return
	}
	probe := chainWalk{target: w.target, names: w.names, budget: w.budget}
	probe.turns(s)
	if probe.dead {
		w.dead = true
		return
	}
	w.turns(s)
}

// turns walks what a loop runs on every turn.
func (w *chainWalk) turns(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.NumberForStmt:
		w.declare(s.Name)
		w.stmts(s.Stmts)
	case *ast.GenericForStmt:
		w.declare(s.Names...)
		w.stmts(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = w.expr(s.Condition)
		w.stmts(s.Stmts)
	case *ast.RepeatStmt:
		w.stmts(s.Stmts)
		s.Condition = w.expr(s.Condition)
	}
}

// declare notes names assigned or declared: a chain reading one of them
// now reads something else.
func (w *chainWalk) declare(names ...string) {
	for _, name := range names {
		if w.names[name] {
			w.dead = true
		}
	}
}

func (w *chainWalk) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = w.expr(e)
	}
}

// expr walks e in the order Lua evaluates it and returns it, with the
// chain's reads replaced when replacing.
func (w *chainWalk) expr(e ast.Expr) ast.Expr {
	if w.dead || e == nil {
		return e
	}
	*w.budget--
	if x, ok := e.(*ast.AttrGetExpr); ok && w.same(x) {
		w.reads++
		if w.replace == "" {
			return x
		}
		return ident(w.replace, x.Line())
	}
	eachChild(e, w.expr)
	if _, call := e.(*ast.FuncCallExpr); call {
		w.dead = true // the function could change anything
	}
	return e
}

// same reports whether x reads the target chain. Comparing two chains
// walks as far as they agree, so each link compared counts against the
// budget: a chain of a thousand links, compared with each of its
// thousand prefixes at each of its thousand nodes, would otherwise take
// seconds to compile.
func (w *chainWalk) same(x ast.Expr) bool {
	a, b := x, ast.Expr(w.target)
	for {
		if *w.budget--; *w.budget <= 0 {
			w.dead = true
			return false
		}
		switch x := a.(type) {
		case *ast.IdentExpr:
			y, ok := b.(*ast.IdentExpr)
			return ok && x.Value == y.Value
		case *ast.AttrGetExpr:
			y, ok := b.(*ast.AttrGetExpr)
			if !ok || !sameKey(x.Key, y.Key) {
				return false
			}
			a, b = x.Object, y.Object
		default:
			return false
		}
	}
}

// sameKey reports whether two keys of a chain (names and constants) are the same.
func sameKey(a, b ast.Expr) bool {
	switch a := a.(type) {
	case *ast.IdentExpr:
		b, ok := b.(*ast.IdentExpr)
		return ok && a.Value == b.Value
	case *ast.StringExpr:
		b, ok := b.(*ast.StringExpr)
		return ok && a.Value == b.Value
	case *ast.NumberExpr:
		b, ok := b.(*ast.NumberExpr)
		return ok && a.Value == b.Value
	}
	return false
}
