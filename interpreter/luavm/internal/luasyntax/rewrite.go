package luasyntax

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/yuin/gopher-lua/ast"
)

// The hidden locals a compiled chunk receives as its arguments. Their
// names are not Lua identifiers, so a script can neither name nor shadow them.
const (
	concatLocal = "(concat)"
	coverLocal  = "(cover)"
	returnLocal = "(return)"
	resultLocal = "(result)"
)

// rewriter adjusts a parsed chunk before it is compiled (see the package
// doc for why):
//
//   - every `..` chain becomes a call of the hidden bounded concatenation,
//     so that one expression cannot build a string past the memory budget
//     (gopher-lua's own concatenation has no limit and no hook);
//   - `return f(x)` becomes `return (return)(f(x))`, where the hidden
//     function returns its arguments: a tail call becomes an ordinary call,
//     which takes a frame of the call stack (an endless tail call is a
//     stack overflow). gopher-lua counts the tail calls a frame makes and
//     writes a traceback line for each when an error unwinds past it, so
//     an endless tail call stopped at a one-second deadline would then
//     spend seconds and more than a gigabyte on its traceback, out of the
//     watchdog's reach;
//   - with coverage on, a call of the hidden line counter goes before each
//     statement, and the statement's line is recorded as executable; each
//     branch of an if (its then block, and its else block, written or not)
//     starts with a call counting that branch, so a one-line
//     `if c then x end` tells a run that took the branch from one that did not;
//   - in the global functions of Options.Results that have more than one
//     return statement, `return a, b` becomes `return (result)(LINE, a, b)`:
//     the hidden function notes the line and returns the rest, so that a
//     result of the wrong type can name the return statement that produced
//     it (a function with one return statement is left alone, its line in
//     Options.Returns). This is not a workaround of gopher-lua but a
//     rewrite of the same kind, done in the same walk.
//
// Every inserted node carries the line of the code it stands for, so error
// positions do not move.
type rewriter struct {
	cover    bool
	results  map[string]bool // Options.Results
	returns  map[string]int  // Options.Returns
	lines    map[int]struct{}
	branches []Branch
	ifs      map[int]int // if statements seen per line
	depth    int         // of the expression being walked
	consts   int         // literals in the function being walked
	funcs    int         // functions the walk is inside
	defined  int         // functions the walk has met
	result   bool        // the walk is in the body of a function of results
}

// Options says how Rewrite rewrites.
type Options struct {
	Cover   bool     // count the statements and branches run
	Results []string // the global functions whose return lines are noted
	// Returns, when not nil, is filled with the line of the one return
	// statement of each function of Results that has only one: those are
	// known from the source and left as they are, so that the common case
	// costs nothing when it runs.
	Returns map[string]int
}

// Branch is one branch of an if statement, counted with coverage on: the
// counter calls it with its number, its index in Rewrite's result plus 1.
type Branch struct {
	Line  int // the if's
	Block int // which if of its line, from 0
	Index int // 0 for the then block, 1 for the else block
	// SameLine is whether the branch's code starts on the if's line, as in
	// `if c then x end`: the line is covered only once the branch ran.
	SameLine bool
}

// maxExprDepth bounds how deeply expressions nest (a + b + c + ... nests
// one level per operator): gopher-lua's compiler takes time quadratic in it.
const maxExprDepth = 1000

// maxConstants bounds the literals of one function: gopher-lua's compiler
// looks each up among the function's constants one by one, so compiling
// takes time quadratic in their number (25,000 took three seconds).
const maxConstants = 2048

// maxFunctions bounds the functions of one chunk: gopher-lua gives every
// function it compiles room for 128 instructions, lines and calls, about
// 16 KiB until the chunk is compiled and trimmed, so a 252 KB script of
// 14,000 empty functions raised the heap to 279 MiB while compiling. Karmada's
// scripts define a handful.
const maxFunctions = 1000

// LimitError is the error of a chunk past a limit that keeps compiling
// cheap: an expression nested more than 1,000 levels deep, a function
// with more than 2,048 literals, or more than 1,000 functions. Rewrite panics with one to stop the walk
// and recovers it.
type LimitError struct {
	Line int
	What string
}

func (e *LimitError) Error() string { return e.What }

func depthLimit(line int) *LimitError {
	return &LimitError{Line: line, What: fmt.Sprintf("expression nests deeper than %d levels", maxExprDepth)}
}

// Rewrite rewrites chunk in place and returns it with the prologue
// `local (concat), (cover), (return), (result) = ...`, and the executable
// lines and the branches when covering. The compiled chunk is to be called
// with four arguments: the bounded concatenation (Bounds.Concat), the
// counter (or nil), called as (cover)(line) before a statement and
// (cover)(line, n) on entering branch n, a function that returns its
// arguments, and one that notes its first argument, a line, and returns
// the others.
func Rewrite(chunk []ast.Stmt, opts Options) (_ []ast.Stmt, _ []int, _ []Branch, err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case *LimitError:
			err = r
		default:
			panic(r)
		}
	}()
	r := &rewriter{cover: opts.Cover, results: map[string]bool{}, returns: opts.Returns, lines: map[int]struct{}{}, ifs: map[int]int{}}
	for _, name := range opts.Results {
		r.results[name] = true
	}
	body := r.block(chunk)
	prologue := &ast.LocalAssignStmt{Names: []string{concatLocal, coverLocal, returnLocal, resultLocal}, Exprs: []ast.Expr{&ast.Comma3Expr{}}}
	if !opts.Cover {
		return append([]ast.Stmt{prologue}, body...), nil, nil, nil
	}
	return append([]ast.Stmt{prologue}, body...), slices.Sorted(maps.Keys(r.lines)), r.branches, nil
}

func (r *rewriter) block(stmts []ast.Stmt) []ast.Stmt {
	out := stmts
	if r.cover {
		out = make([]ast.Stmt, 0, 2*len(stmts))
	}
	for _, s := range stmts {
		r.stmt(s)
		if r.cover {
			if _, label := s.(*ast.LabelStmt); !label {
				out = append(out, r.counter(s.Line()))
			}
			out = append(out, s)
		}
	}
	return out
}

// counter is the statement `(cover)(line)`.
func (r *rewriter) counter(line int) ast.Stmt {
	r.lines[line] = struct{}{}
	return coverCall(line)
}

// coverCall is the statement `(cover)(line, args...)`.
func coverCall(line int, args ...int) ast.Stmt {
	var nodes []ast.PositionHolder
	var exprs []ast.Expr
	for _, v := range append([]int{line}, args...) {
		arg := &ast.NumberExpr{Value: strconv.Itoa(v)}
		exprs = append(exprs, arg)
		nodes = append(nodes, arg)
	}
	call := &ast.FuncCallExpr{Func: ident(coverLocal, line), Args: exprs}
	stmt := &ast.FuncCallStmt{Expr: call}
	for _, n := range append(nodes, call, stmt) {
		n.SetLine(line)
		n.SetLastLine(line)
	}
	return stmt
}

// countBranches walks the blocks of an if statement and puts a branch
// counter first in its then and else blocks.
func (r *rewriter) countBranches(s *ast.IfStmt) {
	line := s.Line()
	block := r.ifs[line]
	r.ifs[line]++
	count := func(body []ast.Stmt, index int) []ast.Stmt {
		r.branches = append(r.branches, Branch{Line: line, Block: block, Index: index,
			SameLine: len(body) > 0 && body[0].Line() == line})
		return append([]ast.Stmt{coverCall(line, len(r.branches))}, r.block(body)...)
	}
	s.Then = count(s.Then, 0)
	s.Else = count(s.Else, 1)
}

func (r *rewriter) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		r.exprs(s.Lhs)
		r.exprs(s.Rhs)
	case *ast.LocalAssignStmt:
		r.exprs(s.Exprs)
	case *ast.FuncCallStmt:
		s.Expr = r.expr(s.Expr)
	case *ast.DoBlockStmt:
		s.Stmts = r.block(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = r.expr(s.Condition)
		s.Stmts = r.block(s.Stmts)
	case *ast.RepeatStmt:
		s.Stmts = r.block(s.Stmts)
		s.Condition = r.expr(s.Condition)
	case *ast.IfStmt:
		s.Condition = r.expr(s.Condition)
		if r.cover {
			r.countBranches(s)
		} else {
			s.Then = r.block(s.Then)
			s.Else = r.block(s.Else)
		}
	case *ast.NumberForStmt:
		s.Init = r.expr(s.Init)
		s.Limit = r.expr(s.Limit)
		if s.Step != nil {
			s.Step = r.expr(s.Step)
		}
		s.Stmts = r.block(s.Stmts)
	case *ast.GenericForStmt:
		r.exprs(s.Exprs)
		s.Stmts = r.block(s.Stmts)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			s.Name.Func = r.expr(s.Name.Func)
			s.Name.Receiver = r.expr(s.Name.Receiver)
		}
		if r.isResult(s) {
			returns := returnStmts(s.Func.Stmts, nil)
			if len(returns) <= 1 {
				if len(returns) == 1 && r.returns != nil {
					r.returns[s.Name.Func.(*ast.IdentExpr).Value] = returns[0].Line()
				}
				r.expr(s.Func)
				return
			}
			r.define(s.Func)
			r.funcs++
			r.result = true
			s.Func.Stmts = r.block(s.Func.Stmts)
			r.funcs--
			r.result = false
			return
		}
		r.expr(s.Func)
	case *ast.ReturnStmt:
		r.exprs(s.Exprs)
		if r.result {
			s.Exprs = []ast.Expr{r.noteLine(s)}
			return
		}
		if len(s.Exprs) == 1 {
			if call, ok := s.Exprs[0].(*ast.FuncCallExpr); ok && !call.AdjustRet {
				s.Exprs[0] = r.ordinaryCall(call)
			}
		}
	}
}

// isResult reports whether s defines, outside any function, a global
// function of Options.Results.
// define counts a function the walk meets against maxFunctions.
func (r *rewriter) define(f *ast.FunctionExpr) {
	if r.defined++; r.defined > maxFunctions {
		panic(&LimitError{Line: f.Line(), What: fmt.Sprintf("more than %d functions", maxFunctions)})
	}
}

func (r *rewriter) isResult(s *ast.FuncDefStmt) bool {
	if r.funcs > 0 || s.Name == nil || s.Name.Receiver != nil {
		return false
	}
	id, ok := s.Name.Func.(*ast.IdentExpr)
	return ok && r.results[id.Value]
}

// returnStmts appends to found the return statements of a function body,
// not counting those of the functions it defines.
func returnStmts(stmts []ast.Stmt, found []*ast.ReturnStmt) []*ast.ReturnStmt {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			found = append(found, s)
		case *ast.DoBlockStmt:
			found = returnStmts(s.Stmts, found)
		case *ast.WhileStmt:
			found = returnStmts(s.Stmts, found)
		case *ast.RepeatStmt:
			found = returnStmts(s.Stmts, found)
		case *ast.IfStmt:
			found = returnStmts(s.Else, returnStmts(s.Then, found))
		case *ast.NumberForStmt:
			found = returnStmts(s.Stmts, found)
		case *ast.GenericForStmt:
			found = returnStmts(s.Stmts, found)
		}
	}
	return found
}

// noteLine is (result)(LINE, exprs...) for the return statement s; a call
// as its last argument passes on every value, and is an ordinary call.
func (r *rewriter) noteLine(s *ast.ReturnStmt) *ast.FuncCallExpr {
	line := &ast.NumberExpr{Value: strconv.Itoa(s.Line())}
	line.SetLine(s.Line())
	line.SetLastLine(s.Line())
	call := &ast.FuncCallExpr{Func: ident(resultLocal, s.Line()), Args: append([]ast.Expr{line}, s.Exprs...)}
	call.SetLine(s.Line())
	call.SetLastLine(s.LastLine())
	return call
}

// ordinaryCall turns the tail call f(x) into (return)(f(x)), which passes
// on every value f returns.
func (r *rewriter) ordinaryCall(call *ast.FuncCallExpr) *ast.FuncCallExpr {
	wrapped := &ast.FuncCallExpr{Func: ident(returnLocal, call.Line()), Args: []ast.Expr{call}}
	wrapped.SetLine(call.Line())
	wrapped.SetLastLine(call.LastLine())
	return wrapped
}

func (r *rewriter) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = r.expr(e)
	}
}

func (r *rewriter) expr(e ast.Expr) ast.Expr {
	if e == nil { // an absent child (see eachChild), which has no line to fail at
		return nil
	}
	if r.depth++; r.depth > maxExprDepth {
		panic(depthLimit(e.Line()))
	}
	defer func() { r.depth-- }()
	switch e := e.(type) {
	case *ast.StringExpr, *ast.NumberExpr:
		if r.consts++; r.consts > maxConstants {
			panic(&LimitError{Line: e.Line(), What: fmt.Sprintf("a function with more than %d literals (strings and numbers)", maxConstants)})
		}
	case *ast.StringConcatOpExpr:
		return r.concat(e)
	case *ast.FunctionExpr:
		r.define(e)
		r.funcs++
		result, consts := r.result, r.consts
		r.result, r.consts = false, 0
		e.Stmts = r.block(e.Stmts)
		r.result, r.consts = result, consts
		r.funcs--
	default:
		eachChild(e, r.expr)
	}
	return e
}

// concat turns the chain a .. b .. c into (concat)(a, b, c). An operand
// that could yield several values (a call, or ...) is cut to one, as the
// operator does.
func (r *rewriter) concat(e *ast.StringConcatOpExpr) ast.Expr {
	var operands []ast.Expr
	var collect func(ast.Expr)
	collect = func(x ast.Expr) {
		if c, ok := x.(*ast.StringConcatOpExpr); ok {
			collect(c.Lhs)
			collect(c.Rhs)
			return
		}
		x = r.expr(x)
		switch x := x.(type) {
		case *ast.FuncCallExpr:
			x.AdjustRet = true
		case *ast.Comma3Expr:
			x.AdjustRet = true
		}
		operands = append(operands, x)
	}
	collect(e)
	// A call takes its arguments in registers, which run out past ~250:
	// long chains join in groups.
	for len(operands) > maxConcatArgs {
		var groups []ast.Expr
		for i := 0; i < len(operands); i += maxConcatArgs {
			groups = append(groups, concatCall(e, operands[i:min(i+maxConcatArgs, len(operands))]))
		}
		operands = groups
	}
	return concatCall(e, operands)
}

const maxConcatArgs = 64

func concatCall(e ast.Expr, operands []ast.Expr) *ast.FuncCallExpr {
	call := &ast.FuncCallExpr{Func: ident(concatLocal, e.Line()), Args: operands, AdjustRet: true}
	call.SetLine(e.Line())
	call.SetLastLine(e.LastLine())
	return call
}

func ident(name string, line int) *ast.IdentExpr {
	id := &ast.IdentExpr{Value: name}
	id.SetLine(line)
	id.SetLastLine(line)
	return id
}
