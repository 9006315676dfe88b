package luavm

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm/internal/luafix"
)

// MaxSourceSize bounds the text of one script (Karmada's own scripts are
// a few kilobytes).
const MaxSourceSize = 256 << 10

// maxCached bounds the compile cache; past it the cache starts over.
const maxCached = 4096

// Script is a compiled script, ready to run any number of times, from any
// number of goroutines at once.
type Script struct {
	name   string
	source string // the text, for the line an error shows
	// returns holds the line of the one return statement of each operation
	// function that has only one (see luafix.Options.Returns)
	returns map[string]int
	proto   *lua.FunctionProto // shared by every Script compiled from the same text
	cover   *scriptCoverage    // nil when compiled without coverage
}

// Name returns the name the script was compiled under, which its errors carry.
func (s *Script) Name() string { return s.name }

// compiled is a cache entry: the bytecode of one source text.
type compiled struct {
	proto    *lua.FunctionProto
	lines    []int           // executable lines, with coverage on
	branches []luafix.Branch // the if statements' branches, with coverage on
	returns  map[string]int  // see Script.returns
}

type scriptCache struct {
	mu      sync.Mutex
	entries map[string]*compiled
}

// Compile compiles source once per engine (later calls with the same text
// reuse the bytecode) and returns it as a Script named name. A syntax error
// is an *interpreter.ScriptError with the line.
func (e *Engine) Compile(name, source string) (*Script, error) {
	c, err := e.cache.get(source, e.cfg.coverage != nil, !e.cfg.asWritten)
	if err != nil {
		var se *interpreter.ScriptError
		if errors.As(err, &se) {
			se.Customization = name
		}
		return nil, err
	}
	s := &Script{name: name, source: source, proto: c.proto, returns: c.returns}
	if e.cfg.coverage != nil {
		s.cover = e.cfg.coverage.register(name, c.lines, c.branches)
	}
	return s, nil
}

func (c *scriptCache) get(source string, cover, hoist bool) (*compiled, error) {
	c.mu.Lock()
	entry, ok := c.entries[source]
	c.mu.Unlock()
	if ok {
		return entry, nil
	}
	entry, err := compile(source, cover, hoist)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCached {
		c.entries = map[string]*compiled{}
	}
	c.entries[source] = entry
	return entry, nil
}

// compile parses source, rewrites it (see luafix.Rewrite) and compiles it
// to bytecode. With hoist and without coverage, the chain reads it
// repeats are hoisted first (luafix.Hoist); should that chunk not
// compile, the script is compiled as written, which reports the error if
// it has one.
func compile(source string, cover, hoist bool) (*compiled, error) {
	if len(source) > MaxSourceSize {
		return nil, &interpreter.ScriptError{Err: fmt.Errorf("script is %d bytes, more than the %d allowed", len(source), MaxSourceSize)}
	}
	var nesting *luafix.NestingError
	if err := luafix.CheckNesting(source); errors.As(err, &nesting) {
		return nil, &interpreter.ScriptError{Line: nesting.Line, Source: sourceLine(source, nesting.Line), Err: err}
	}
	if hoist && !cover {
		entry, hoisted, err := build(source, false, true)
		if err == nil || hoisted == 0 {
			return entry, err
		}
	}
	entry, _, err := build(source, cover, false)
	return entry, err
}

// build is compile once checked, with hoisting or without; it returns
// how many chains it hoisted.
func build(source string, cover, hoist bool) (entry *compiled, hoisted int, err error) {
	defer func() {
		if r := recover(); r != nil {
			entry, err = nil, &interpreter.ScriptError{Err: fmt.Errorf("compiling the script: %v", r)}
		}
	}()
	chunk, err := parse.Parse(strings.NewReader(source), chunkName)
	if err != nil {
		se := syntaxError(err)
		se.Source = sourceLine(source, se.Line)
		return nil, 0, se
	}
	if hoist {
		chunk, hoisted = luafix.Hoist(chunk)
	}
	returns := map[string]int{}
	chunk, lines, branches, err := luafix.Rewrite(chunk, luafix.Options{Cover: cover, Results: resultFunctions, Returns: returns})
	var limit *luafix.LimitError
	if errors.As(err, &limit) {
		return nil, hoisted, &interpreter.ScriptError{Line: limit.Line, Source: sourceLine(source, limit.Line), Err: err}
	}
	proto, err := lua.Compile(chunk, chunkName)
	if err != nil {
		var ce *lua.CompileError
		if errors.As(err, &ce) {
			return nil, hoisted, &interpreter.ScriptError{Line: ce.Line, Source: sourceLine(source, ce.Line), Err: errors.New(ce.Message)}
		}
		return nil, hoisted, &interpreter.ScriptError{Err: err}
	}
	trim(proto)
	return &compiled{proto: proto, lines: lines, branches: branches, returns: returns}, hoisted, nil
}

// trim copies the slices of proto and of the functions it defines into
// slices of their length. gopher-lua makes every function's with room
// for 128 instructions, lines and calls and 16 to 32 of the rest, about
// 16 KiB where an empty function needs a few dozen bytes: a script of
// 15,000 short functions (255 KB) held 248 MiB for as long as it was
// cached. (The string constants gopher-lua keeps to itself stay as they
// are: 512 bytes a function.)
func trim(proto *lua.FunctionProto) {
	proto.Code = slices.Clone(proto.Code)
	proto.Constants = slices.Clone(proto.Constants)
	proto.FunctionPrototypes = slices.Clone(proto.FunctionPrototypes)
	proto.DbgSourcePositions = slices.Clone(proto.DbgSourcePositions)
	proto.DbgLocals = slices.Clone(proto.DbgLocals)
	proto.DbgCalls = slices.Clone(proto.DbgCalls)
	proto.DbgUpvalues = slices.Clone(proto.DbgUpvalues)
	for _, p := range proto.FunctionPrototypes {
		trim(p)
	}
}

func syntaxError(err error) *interpreter.ScriptError {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return &interpreter.ScriptError{Err: fmt.Errorf("syntax error: %w", err)}
	}
	msg := strings.TrimSpace(pe.Message)
	if pe.Pos.Line == parse.EOF {
		return &interpreter.ScriptError{Err: fmt.Errorf("syntax error: unexpected end of the script (%s)", msg)}
	}
	// gopher-lua's column is the token's last character.
	column := max(pe.Pos.Column-len(pe.Token)+1, 0)
	return &interpreter.ScriptError{Line: pe.Pos.Line, Column: column, Err: fmt.Errorf("syntax error near %q: %s", pe.Token, msg)}
}

// resultFunctions are the functions whose return statements record their
// line (see luafix.Options), so that a result of the wrong type names it.
var resultFunctions = func() []string {
	var names []string
	for _, op := range interpreter.Operations() {
		names = append(names, op.LuaFunction())
	}
	return names
}()
