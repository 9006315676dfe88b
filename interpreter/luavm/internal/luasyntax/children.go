package luasyntax

import "github.com/yuin/gopher-lua/ast"

// eachChild replaces each expression e holds with visit's result, in the
// order Lua evaluates them. A function's body is not among them: it runs
// when the function is called, not where it is written. visit is given
// the nil of an absent child (a call's receiver, an array field's key).
func eachChild(e ast.Expr, visit func(ast.Expr) ast.Expr) {
	switch x := e.(type) {
	case *ast.AttrGetExpr:
		x.Object = visit(x.Object)
		x.Key = visit(x.Key)
	case *ast.FuncCallExpr:
		x.Receiver = visit(x.Receiver)
		x.Func = visit(x.Func)
		for i, arg := range x.Args {
			x.Args[i] = visit(arg)
		}
	case *ast.TableExpr:
		for _, f := range x.Fields {
			f.Key = visit(f.Key)
			f.Value = visit(f.Value)
		}
	case *ast.LogicalOpExpr:
		x.Lhs = visit(x.Lhs)
		x.Rhs = visit(x.Rhs)
	case *ast.RelationalOpExpr:
		x.Lhs = visit(x.Lhs)
		x.Rhs = visit(x.Rhs)
	case *ast.ArithmeticOpExpr:
		x.Lhs = visit(x.Lhs)
		x.Rhs = visit(x.Rhs)
	case *ast.StringConcatOpExpr:
		x.Lhs = visit(x.Lhs)
		x.Rhs = visit(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		x.Expr = visit(x.Expr)
	case *ast.UnaryNotOpExpr:
		x.Expr = visit(x.Expr)
	case *ast.UnaryLenOpExpr:
		x.Expr = visit(x.Expr)
	}
}
