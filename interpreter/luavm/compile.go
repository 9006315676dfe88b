package luavm

import (
	"container/list"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
)

// MaxSourceSize bounds the text of one script (Karmada's own scripts are
// a few kilobytes).
const MaxSourceSize = 256 << 10

// The bounds of the compile cache: past either, the script used least
// recently is dropped (a Script already compiled from it keeps working).
const (
	// DefaultCacheBytes bounds what the cache's scripts take, by
	// compiledSize's estimate. The bundled scripts take 8 KiB each on
	// average, 27 KiB at most, so 4,096 of them fit in 256 MiB many
	// times over; a script of the most text and functions allowed takes
	// about 1 MiB, and 4,096 of those, 4 GiB, would not: past a quarter
	// of the engine's default heap ceiling, the cache drops scripts.
	DefaultCacheBytes = 256 << 20
	// maxCached bounds how many scripts the cache keeps, large or small.
	maxCached = 4096
)

// Script is a compiled script, ready to run any number of times, from any
// number of goroutines at once.
type Script struct {
	name   string
	source string // the text, for the line an error shows
	// returns holds the line of the one return statement of each operation
	// function that has only one (see luasyntax.Options.Returns)
	returns map[string]int
	proto   *lua.FunctionProto // shared by every Script compiled from the same text
	cover   *scriptCoverage    // nil when compiled without coverage
}

// Name returns the name the script was compiled under, which its errors carry.
func (s *Script) Name() string { return s.name }

// compiled is a cache entry: the bytecode of one source text.
type compiled struct {
	proto    *lua.FunctionProto
	lines    []int              // executable lines, with coverage on
	branches []luasyntax.Branch // the if statements' branches, with coverage on
	returns  map[string]int     // see Script.returns
}

// scriptCache keeps compiled scripts by their text, the most recently
// used first, within maxCached scripts and maxBytes.
type scriptCache struct {
	mu       sync.Mutex
	entries  map[string]*list.Element // of *cacheEntry
	lru      list.List                // of *cacheEntry, the most recently used first
	bytes    int64                    // of the entries, by compiledSize
	maxBytes int64                    // WithCacheBytes
}

type cacheEntry struct {
	source string
	c      *compiled
	size   int64
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
	if e, ok := c.entries[source]; ok {
		c.lru.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cacheEntry).c, nil
	}
	c.mu.Unlock()
	compiled, err := compile(source, cover, hoist)
	if err != nil {
		return nil, err
	}
	c.put(source, compiled)
	return compiled, nil
}

// put keeps compiled, the bytecode of source, dropping the scripts used
// least recently past the cache's bounds. A script larger than the whole
// cache is not kept.
func (c *scriptCache) put(source string, compiled *compiled) {
	size := compiledSize(source, compiled)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*list.Element{}
	}
	if _, ok := c.entries[source]; ok || size > c.maxBytes { // compiled by another call meanwhile, or too large
		return
	}
	c.entries[source] = c.lru.PushFront(&cacheEntry{source: source, c: compiled, size: size})
	c.bytes += size
	for c.bytes > c.maxBytes || len(c.entries) > maxCached {
		last := c.lru.Remove(c.lru.Back()).(*cacheEntry)
		delete(c.entries, last.source)
		c.bytes -= last.size
	}
}

// size returns how many scripts the cache holds, and what they take.
func (c *scriptCache) size() (scripts int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// compiledSize estimates what the cache entry of source takes: its text
// (the key), and its functions' bytecode, constants and debugging
// information with gopher-lua's slices and headers. Held against the heap
// of TestCompiledSize's scripts, it is within a fifth of what they take.
func compiledSize(source string, c *compiled) int64 {
	size := int64(len(source)) + cacheEntryBytes + int64(len(c.lines))*8 + int64(len(c.branches))*int64(unsafe.Sizeof(luasyntax.Branch{})) + int64(len(c.returns))*64
	return size + protoSize(c.proto)
}

// cacheEntryBytes is a cache entry's own: its list element, map entry and
// headers.
const cacheEntryBytes = 256

// protoSize estimates what a compiled function and the functions it
// defines take.
func protoSize(p *lua.FunctionProto) int64 {
	size := int64(unsafe.Sizeof(*p)) + protoStringConstants +
		int64(cap(p.Code))*4 + int64(cap(p.Constants))*16 + int64(cap(p.FunctionPrototypes))*8 +
		int64(cap(p.DbgSourcePositions))*8 + int64(cap(p.DbgLocals))*8 + int64(cap(p.DbgCalls))*int64(unsafe.Sizeof(lua.DbgCall{})) +
		int64(cap(p.DbgUpvalues))*16
	for _, k := range p.Constants {
		if s, ok := k.(lua.LString); ok {
			size += int64(len(s)) + 16 // the string, and its place among gopher-lua's string constants
		}
	}
	for _, l := range p.DbgLocals {
		size += int64(unsafe.Sizeof(*l)) + int64(len(l.Name))
	}
	for _, call := range p.DbgCalls {
		size += int64(len(call.Name))
	}
	for _, up := range p.DbgUpvalues {
		size += int64(len(up))
	}
	for _, f := range p.FunctionPrototypes {
		size += protoSize(f)
	}
	return size
}

// protoStringConstants is what the list of string constants gopher-lua
// keeps to itself takes in a function, whatever it holds: room for 32.
const protoStringConstants = 32 * 16

// compile parses source, rewrites it (see luasyntax.Rewrite) and compiles it
// to bytecode. With hoist and without coverage, the chain reads it
// repeats are hoisted first (luasyntax.Hoist); should that chunk not
// compile, the script is compiled as written, which reports the error if
// it has one.
func compile(source string, cover, hoist bool) (*compiled, error) {
	if len(source) > MaxSourceSize {
		return nil, &interpreter.ScriptError{Err: fmt.Errorf("script is %d bytes, more than the %d allowed", len(source), MaxSourceSize)}
	}
	var nesting *luasyntax.NestingError
	if err := luasyntax.CheckNesting(source); errors.As(err, &nesting) {
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
		if o, ok := unclosedBlock(source); se.Line == 0 && ok {
			closer := "end"
			if o.word == "repeat" {
				closer = "until"
			}
			se.Line, se.Err = o.line, fmt.Errorf("syntax error: the script ends before the %q of this line has its %q", o.word, closer)
		}
		se.Source = sourceLine(source, se.Line)
		return nil, 0, se
	}
	if hoist {
		chunk, hoisted = luasyntax.Hoist(chunk)
	}
	returns := map[string]int{}
	chunk, lines, branches, err := luasyntax.Rewrite(chunk, luasyntax.Options{Cover: cover, Results: resultFunctions, Returns: returns})
	var limit *luasyntax.LimitError
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
// line (see luasyntax.Options), so that a result of the wrong type names it.
var resultFunctions = func() []string {
	var names []string
	for _, op := range interpreter.Operations() {
		names = append(names, op.LuaFunction())
	}
	return names
}()
