package luasyntax

import (
	"strconv"

	"github.com/yuin/gopher-lua/ast"
)

// Hoist reads an index chain that a block reads again and again once,
// into a hidden local: Karmada-style scripts spell out
// statusItems[i].status.replicas at every use, and gopher-lua does every
// table read of every spelling, so the aggregation of a large fleet
// spends most of its time reading the same two tables over and over.
//
// It is sound in the sandbox because reading a table cannot change
// anything: setmetatable is not there, so the only __index a script meets
// are the engine's own (lazy tables and status proxies, which answer the
// same read with the same value). A chain is a local or global name
// indexed by constants and names (statusItems[i].status, status.replicas).
// In a block, a statement
// whose first evaluation is such a chain, and whose following code reads
// it again before anything could change it, gets `local (readN) = chain`
// before it, and the reads until then read (readN). Anything could change
// it at a call, a write of a table field, an assignment to or new local
// of a name the chain uses, a label or goto, and a loop that holds one of
// those (whose next turn would come after it): the hoisted value stands
// for the chain only up to there. Reads inside functions defined in the
// block are left alone. Because the chain is what the statement evaluates
// first, hoisting it evaluates nothing earlier than the script did: an
// error it raises is raised at the same line, by the same read.
//
// A chunk whose rewrite no longer compiles (more locals than gopher-lua's
// 200 registers, a goto into a hidden local's scope) is compiled as it was
// written: the caller compiles both.
func Hoist(chunk []ast.Stmt) (_ []ast.Stmt, hoisted int) {
	h := &hoister{budget: maxHoistVisits}
	chunk = h.function(chunk)
	return chunk, h.made
}

// maxHoistVisits bounds the nodes Hoist visits in one chunk (each
// statement that could start a chain walks the code after it), so that a
// hostile script's compile time stays bounded; past it Hoist stops.
const maxHoistVisits = 2_000_000

// maxHoistedPerFunction bounds the hidden locals of one function, well
// within gopher-lua's 200 registers.
const maxHoistedPerFunction = 64

const readLocal = "(read"

type hoister struct {
	budget int // node visits left
	made   int // hidden locals made in the chunk, for their names
	inFunc int // hidden locals made in the function being rewritten
}

// function rewrites a function's body.
func (h *hoister) function(body []ast.Stmt) []ast.Stmt {
	outer := h.inFunc
	h.inFunc = 0
	body = h.block(body)
	h.inFunc = outer
	return body
}

func (h *hoister) block(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for k := 0; k < len(stmts); k++ {
		s := stmts[k]
		for h.inFunc < maxHoistedPerFunction && h.budget > 0 {
			decl := h.hoist(s, stmts[k+1:])
			if decl == nil {
				break
			}
			if out == nil {
				out = append(make([]ast.Stmt, 0, len(stmts)+1), stmts[:k]...)
			}
			out = append(out, decl)
		}
		h.nested(s)
		if out != nil {
			out = append(out, s)
		}
	}
	if out == nil {
		return stmts
	}
	return out
}

// hoist returns the declaration of the hidden local that takes s's
// leading chain, or the part of it read most often, when s and the
// statements after it read that more than once before anything could
// change it; it has then replaced those reads. It returns nil otherwise.
func (h *hoister) hoist(s ast.Stmt, after []ast.Stmt) ast.Stmt {
	lead := leadingChain(s)
	if lead == nil {
		return nil
	}
	links := chainLinks(lead)
	var best *ast.AttrGetExpr
	bestSaved := 0
	for d := len(links) - 1; d >= 0 && h.budget > 0; d-- { // links[d]: the prefix of d+1 indexes
		h.budget -= d + 1 // chainNames walks the prefix
		w := &chainWalk{target: links[d], names: chainNames(links[d]), budget: &h.budget}
		w.region(s, after)
		if saved := (w.reads - 1) * (d + 1); saved > bestSaved {
			best, bestSaved = links[d], saved
		}
	}
	if best == nil || h.budget <= 0 {
		return nil
	}
	h.made++
	h.inFunc++
	name := readLocal + strconv.Itoa(h.made) + ")"
	decl := &ast.LocalAssignStmt{Names: []string{name}, Exprs: []ast.Expr{best}}
	decl.SetLine(s.Line())
	decl.SetLastLine(s.Line())
	w := &chainWalk{target: best, names: chainNames(best), budget: &h.budget, replace: name}
	w.region(s, after)
	return decl
}

// nested rewrites the blocks of s and the bodies of the functions it defines.
func (h *hoister) nested(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.DoBlockStmt:
		s.Stmts = h.block(s.Stmts)
	case *ast.WhileStmt:
		h.functions(s.Condition)
		s.Stmts = h.block(s.Stmts)
	case *ast.RepeatStmt:
		s.Stmts = h.block(s.Stmts)
		h.functions(s.Condition)
	case *ast.IfStmt:
		h.functions(s.Condition)
		s.Then = h.block(s.Then)
		s.Else = h.block(s.Else)
	case *ast.NumberForStmt:
		h.functions(s.Init, s.Limit, s.Step)
		s.Stmts = h.block(s.Stmts)
	case *ast.GenericForStmt:
		h.functions(s.Exprs...)
		s.Stmts = h.block(s.Stmts)
	case *ast.FuncDefStmt:
		s.Func.Stmts = h.function(s.Func.Stmts)
	case *ast.AssignStmt:
		h.functions(s.Lhs...)
		h.functions(s.Rhs...)
	case *ast.LocalAssignStmt:
		h.functions(s.Exprs...)
	case *ast.FuncCallStmt:
		h.functions(s.Expr)
	case *ast.ReturnStmt:
		h.functions(s.Exprs...)
	}
}

// functions rewrites the bodies of the functions defined in es.
func (h *hoister) functions(es ...ast.Expr) {
	for _, e := range es {
		h.budget--
		if f, ok := e.(*ast.FunctionExpr); ok {
			f.Stmts = h.function(f.Stmts)
			continue
		}
		eachChild(e, func(child ast.Expr) ast.Expr {
			h.functions(child)
			return child
		})
	}
}

// leadingChain returns the chain s evaluates first, nil if that is not a
// chain. A while's condition is evaluated again
// on every turn, after its body, and is never taken.
func leadingChain(s ast.Stmt) *ast.AttrGetExpr {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.IfStmt:
		e = s.Condition
	case *ast.LocalAssignStmt:
		if len(s.Exprs) > 0 {
			e = s.Exprs[0]
		}
	case *ast.ReturnStmt:
		if len(s.Exprs) > 0 {
			e = s.Exprs[0]
		}
	case *ast.FuncCallStmt:
		e = s.Expr
	case *ast.AssignStmt:
		// The targets' tables and keys are evaluated first: names only.
		for _, target := range s.Lhs {
			if !simpleTarget(target) {
				return nil
			}
		}
		e = s.Rhs[0]
	}
	if e == nil {
		return nil
	}
	chain, _ := lead(e)
	return chain
}

// lead returns the chain e evaluates first, passing over what cannot
// fail nor change anything (names, literals, a function made); settled
// says no later part of e comes first: e evaluates something else before
// or could fail there.
func lead(e ast.Expr) (chain *ast.AttrGetExpr, settled bool) {
	first := func(es ...ast.Expr) (*ast.AttrGetExpr, bool) {
		for _, e := range es {
			if e == nil {
				continue
			}
			if chain, settled := lead(e); settled {
				return chain, true
			}
		}
		return nil, false
	}
	switch x := e.(type) {
	case *ast.IdentExpr, *ast.NumberExpr, *ast.StringExpr, *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr,
		*ast.FunctionExpr, *ast.Comma3Expr:
		return nil, false
	case *ast.AttrGetExpr:
		if chainLinks(x) != nil {
			return x, true
		}
		if chain, settled := first(x.Object, x.Key); settled {
			return chain, true
		}
	case *ast.ArithmeticOpExpr:
		if chain, settled := first(x.Lhs, x.Rhs); settled {
			return chain, true
		}
	case *ast.RelationalOpExpr:
		if chain, settled := first(x.Lhs, x.Rhs); settled {
			return chain, true
		}
	case *ast.StringConcatOpExpr:
		if chain, settled := first(x.Lhs, x.Rhs); settled {
			return chain, true
		}
	case *ast.LogicalOpExpr: // the right side may not be evaluated
		chain, _ := lead(x.Lhs)
		return chain, true
	case *ast.UnaryMinusOpExpr:
		chain, _ := lead(x.Expr)
		return chain, true
	case *ast.UnaryNotOpExpr:
		chain, _ := lead(x.Expr)
		return chain, true
	case *ast.UnaryLenOpExpr:
		chain, _ := lead(x.Expr)
		return chain, true
	case *ast.FuncCallExpr:
		if x.Receiver != nil { // the method is looked up next, which could fail
			chain, _ := lead(x.Receiver)
			return chain, true
		}
		if chain, settled := first(append([]ast.Expr{x.Func}, x.Args...)...); settled {
			return chain, true
		}
	case *ast.TableExpr: // made first, then its fields in order
		for _, f := range x.Fields {
			if chain, settled := first(f.Key, f.Value); settled {
				return chain, true
			}
		}
		return nil, false
	}
	return nil, true // the operation itself could fail
}

// simpleTarget reports whether assigning to e evaluates nothing that
// could fail before the value: a name, or a name indexed by a constant
// or a name.
func simpleTarget(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return true
	case *ast.AttrGetExpr:
		_, object := e.Object.(*ast.IdentExpr)
		return object && simpleKey(e.Key)
	}
	return false
}

// chainLinks returns the index expressions of the chain e, innermost
// first (links[0] indexes the name), or nil if e is not a chain.
func chainLinks(e *ast.AttrGetExpr) []*ast.AttrGetExpr {
	var links []*ast.AttrGetExpr
	for {
		if !simpleKey(e.Key) {
			return nil
		}
		links = append(links, e)
		switch object := e.Object.(type) {
		case *ast.IdentExpr:
			for i, j := 0, len(links)-1; i < j; i, j = i+1, j-1 {
				links[i], links[j] = links[j], links[i]
			}
			return links
		case *ast.AttrGetExpr:
			e = object
		default:
			return nil
		}
	}
}

func simpleKey(e ast.Expr) bool {
	switch e.(type) {
	case *ast.StringExpr, *ast.NumberExpr, *ast.IdentExpr:
		return true
	}
	return false
}

// chainNames returns the names a chain reads: its base and its name keys.
func chainNames(e ast.Expr) map[string]bool {
	names := map[string]bool{}
	for {
		switch x := e.(type) {
		case *ast.IdentExpr:
			names[x.Value] = true
			return names
		case *ast.AttrGetExpr:
			if key, ok := x.Key.(*ast.IdentExpr); ok {
				names[key.Value] = true
			}
			e = x.Object
		default:
			return names
		}
	}
}
