package luavm

import (
	"context"
	"fmt"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// Run runs req's operation on s: the operation's global function of s,
// called with req's objects, and what it returns validated into the
// response (see the interpreter package doc for the contract). Every
// error is an *interpreter.ScriptError.
func (e *Engine) Run(ctx context.Context, s *Script, req interpreter.Request) (interpreter.Response, error) {
	op := req.Operation
	resp := interpreter.Response{Operation: op}
	if err := req.Validate(); err != nil {
		return resp, scriptError(s, op, 0, err)
	}
	err := e.session(ctx, s, op, nil, func(st *state) error {
		args, err := st.arguments(req)
		if err != nil {
			return err
		}
		res, err := st.call(op, nresults(op), args...)
		if err != nil {
			return err
		}
		err = st.response(req, res, &resp)
		if err != nil && st.returned == 0 {
			if end := st.functionEnd(op); end > 0 {
				if st.returnLine == 0 {
					st.returnLine = end
				}
				return fmt.Errorf("%w (%s returned nothing: a return missing before its end on Lua line %d?)", err, op.LuaFunction(), end)
			}
		}
		if err != nil && st.returnLine == 0 {
			st.returnLine = s.returns[op.LuaFunction()]
		}
		return err
	})
	if err != nil {
		return interpreter.Response{Operation: op}, err
	}
	return resp, nil
}

// session runs s's chunk in fresh globals on a pooled state, under the
// call's deadline and memory budget, then hands the state to body. With
// vars, the chunk runs with vars set in its globals and what it returns
// is left on the stack for body (a chunk script, RunChunk); without, what
// it returns is dropped. Every error it returns is an
// *interpreter.ScriptError for s and op.
func (e *Engine) session(ctx context.Context, s *Script, op interpreter.Operation, vars func(st *state) error, body func(st *state) error) (err error) {
	ceiling := e.cfg.heapCeiling()
	if heap, below := e.watchdog.belowCeiling(ctx, ceiling); !below {
		return scriptError(s, op, 0, fmt.Errorf("%w: the process heap is %d MiB, above the engine's ceiling of %d MiB; the call was not started",
			interpreter.ErrOverloaded, heap/bytesInMebi, ceiling/bytesInMebi))
	}
	if e.cfg.runs != nil && !e.cfg.runs.Allow() {
		return scriptError(s, op, 0, fmt.Errorf("%w: the engine runs at most %g scripts a second; the call was not started",
			interpreter.ErrOverloaded, float64(e.cfg.runs.Limit())))
	}
	st, err := e.pool.acquire(ctx)
	if err != nil {
		return scriptError(s, op, 0, fmt.Errorf("waiting for a Lua state: %w", err))
	}
	e.runs.Add(1)
	cc := st.ctx
	e.watchdog.watch(&st.watch, cc, cc.begin(ctx), ctx, e.cfg.timeout, e.cfg.budget)
	broken := true
	defer func() {
		e.watchdog.unwatch(&st.watch)
		if r := recover(); r != nil {
			err = scriptError(s, op, 0, fmt.Errorf("internal error: %v", r))
		}
		st.finish()
		if !cc.end() {
			st.ctx = newCallContext(st.liveBytes)
		}
		e.pool.release(st, broken)
	}()

	L := st.L
	L.SetContext(cc)
	st.print, st.printed, st.limit, st.limitMessage = e.printSink(ctx), 0, nil, ""
	st.lazy.limits = convLimits{maxBytes: int(e.cfg.budget), maxOutput: e.cfg.outputLimit, call: cc}
	L.Push(st.chunk(s))
	nret := 0
	if vars != nil {
		if err := vars(st); err != nil {
			return scriptError(s, op, 0, err)
		}
		nret = lua.MultRet
	}
	L.Push(st.concat)
	if s.cover != nil {
		L.Push(s.cover.counter(L))
	} else {
		L.Push(lua.LNil)
	}
	L.Push(st.passOn)
	L.Push(st.noteResult)
	st.inChunk = true
	if err := L.PCall(4, nret, nil); err != nil {
		broken = cc.Cause() != nil
		return callError(cc.Cause(), st, s, op, err)
	}
	st.inChunk = false
	err = body(st)
	broken = cc.Cause() != nil
	if err != nil {
		if _, ok := err.(*lua.ApiError); ok {
			return callError(cc.Cause(), st, s, op, err)
		}
		return scriptError(s, op, st.returnLine, err)
	}
	return nil
}

// chunk returns s's chunk as a function of the call's globals. The state
// keeps the function of its last script: a script cannot reach the
// function its chunk runs as (nor change it: setfenv is not in the
// sandbox), and a chunk has no upvalues, so one function serves every
// call of the script.
func (st *state) chunk(s *Script) *lua.LFunction {
	if st.lastChunk == nil || st.lastChunk.Proto != s.proto {
		st.lastChunk = st.L.NewFunctionFromProto(s.proto)
	}
	st.lastChunk.Env = st.newEnv()
	return st.lastChunk
}

// finish drops what the call left on the state, so it can be reused and
// the call's values can be collected.
func (st *state) finish() {
	st.L.SetTop(0)
	st.L.RemoveContext()
	st.clearEnv()
	st.print = nil
	st.lazy.limits = convLimits{}
	st.returnLine, st.returned, st.inChunk = 0, 0, false
	clear(st.results[:])
	clear(st.args[:])
	st.lazy.reset()
}

// function returns the global function name the chunk defined.
func (st *state) function(name string) (*lua.LFunction, error) {
	switch v := st.env.RawGetString(name).(type) {
	case *lua.LFunction:
		return v, nil
	case *lua.LNilType:
		return nil, undefinedFunction(name, st.globalFunctions())
	default:
		return nil, fmt.Errorf("%s is a %s, not a function", name, v.Type())
	}
}

// undefinedFunction is the error of a chunk that defines the global
// functions defined but not name: it names the one closest to name.
func undefinedFunction(name string, defined []string) error {
	if near := manifest.Closest(name, defined); near != "" {
		return fmt.Errorf("the script does not define the global function %s; it defines %s: did you mean %s?", name, near, name)
	}
	return fmt.Errorf("the script does not define the global function %s", name)
}

// functionEnd returns the line of the `end` of op's global function; 0
// when it is not a Lua function.
func (st *state) functionEnd(op interpreter.Operation) int {
	fn, err := st.function(op.LuaFunction())
	if err != nil || fn.Proto == nil {
		return 0
	}
	return fn.Proto.LastLineDefined
}

// globalFunctions returns the names of the functions the chunk defined as
// globals, for a suggestion when the one wanted is missing.
func (st *state) globalFunctions() []string {
	var names []string
	st.env.ForEach(func(k, v lua.LValue) {
		if name, ok := k.(lua.LString); ok && v.Type() == lua.LTFunction {
			names = append(names, string(name))
		}
	})
	slices.Sort(names)
	return names
}

// call runs the operation's global function with args and returns its
// first nret results (nil for those it did not return), at most two, in a
// slice the next call reuses.
func (st *state) call(op interpreter.Operation, nret int, args ...lua.LValue) ([]lua.LValue, error) {
	fn, err := st.function(op.LuaFunction())
	if err != nil {
		return nil, err
	}
	L := st.L
	base := L.GetTop()
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	if err := L.PCall(len(args), lua.MultRet, nil); err != nil {
		return nil, err
	}
	// How many values came back tells a function that reached its end
	// (none) from one that returned nil.
	st.returned = L.GetTop() - base
	results := st.results[:nret]
	for i := range results {
		results[i] = lua.LNil
		if i < st.returned {
			results[i] = L.Get(base + 1 + i)
		}
	}
	L.SetTop(base)
	return results, nil
}

// Check runs the script's chunk in the sandbox and reports whether it
// defines op's global function: what validating a customization needs.
// Errors are *interpreter.ScriptError.
func (e *Engine) Check(s *Script, op interpreter.Operation) error {
	return e.session(context.Background(), s, op, nil, func(st *state) error {
		_, err := st.function(op.LuaFunction())
		return err
	})
}
