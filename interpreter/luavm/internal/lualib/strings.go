package lualib

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The bounded string functions (see the package doc for why). Each
// refuses, before allocating, to build a string longer than
// Bounds.MaxString; gsub and gmatch find their matches one at a time (see
// pattern.go), so neither a long subject nor a replacement that multiplies
// it costs more than the result.

// Bounds are the limits of the string functions of one Lua state.
type Bounds struct {
	MaxString int                              // the longest string a function may build, in bytes
	Raise     func(format string, args ...any) // raises the memory-limit error; does not return
}

// maxFormatWidth is the longest width or precision string.format accepts
// in a directive, as in C Lua (two digits).
const maxFormatWidth = 99

// checkSize raises the memory-limit error when what would be n bytes long.
func (bd *Bounds) checkSize(what string, n int) {
	if n > bd.MaxString || n < 0 {
		bd.Raise("%s would build a string of %d bytes, more than the %d allowed", what, n, bd.MaxString)
	}
}

// Concat is the `..` operator (see Rewrite): it joins strings and
// numbers, and names the type of any other operand.
func (bd *Bounds) Concat(L *lua.LState) int {
	n := L.GetTop()
	size := 0
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			size += len(v)
		case lua.LNumber:
			size += 24
		default:
			L.RaiseError("attempt to concatenate a %s value", v.Type().String())
		}
	}
	bd.checkSize("..", size)
	var b strings.Builder
	b.Grow(size)
	for i := 1; i <= n; i++ {
		b.WriteString(lua.LVAsString(L.Get(i)))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// Rep is string.rep.
func (bd *Bounds) Rep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	if n > bd.MaxString/len(s) {
		bd.Raise("string.rep would build a string of %d × %d bytes, more than the %d allowed", n, len(s), bd.MaxString)
	}
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// Format is string.format with Lua's directives only: it checks each
// directive and its argument, works out the longest string they can
// produce, then lets gopher-lua's format (Go's fmt underneath) do the
// work. Refused, as C Lua refuses them: Go's own verbs and argument
// indexes (%v, %T, %p, %[1]s), which would print Go type names and
// addresses or reuse one argument without bound; a missing argument; a
// table, boolean or nil where a string or number is due. %u, which Go
// lacks, is formatted as %d.
func (bd *Bounds) Format(format lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		f := L.CheckString(1)
		size, rewritten := len(f), []byte(nil)
		arg := 1
		for i := 0; i < len(f); i++ {
			if f[i] != '%' {
				continue
			}
			i++
			if i < len(f) && f[i] == '%' {
				continue
			}
			spec := i - 1
			for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
				i++
			}
			width, precision := 0, -1
			for _, part := range []string{"width", "precision"} {
				if part == "precision" {
					if i >= len(f) || f[i] != '.' {
						break
					}
					i++
					precision = 0
				}
				start := i
				n := 0
				for i < len(f) && f[i] >= '0' && f[i] <= '9' {
					n = 10*n + int(f[i]-'0')
					i++
				}
				if i-start > 2 {
					L.RaiseError("invalid format (%s too long, at most %d)", part, maxFormatWidth)
				}
				if part == "width" {
					width = n
				} else {
					precision = n
				}
			}
			if i >= len(f) {
				L.RaiseError("invalid conversion '%s' to 'format'", f[spec:])
			}
			conv := f[i]
			if strings.IndexByte(luaVerbs, conv) < 0 {
				L.RaiseError("invalid option '%%%c' to 'format' (Lua's options are %s)", conv, luaVerbs)
			}
			if conv == 'u' {
				if rewritten == nil {
					rewritten = []byte(f)
				}
				rewritten[i] = 'd'
			}
			arg++
			size += width + directiveSize(L, arg, conv, precision)
			if size > bd.MaxString {
				bd.checkSize("string.format", size)
			}
		}
		if rewritten != nil {
			L.Replace(1, lua.LString(rewritten))
		}
		return format(L)
	}
}

// luaVerbs are the conversions of Lua's string.format.
const luaVerbs = "cdiouxXeEfgGqs"

// directiveSize checks argument n of string.format against conversion
// conv and returns the most bytes the directive can produce, width aside.
func directiveSize(L *lua.LState, n int, conv byte, precision int) int {
	v := L.Get(n)
	if n > L.GetTop() {
		L.ArgError(n, "no value")
	}
	switch conv {
	case 's', 'q', 'x', 'X':
		str, ok := v.(lua.LString)
		if !ok {
			if _, isNumber := v.(lua.LNumber); !isNumber {
				want := "string"
				if conv == 'x' || conv == 'X' {
					want = "number"
				}
				L.ArgError(n, want+" expected, got "+v.Type().String())
			}
			return numberSize + max(precision, 0)
		}
		switch {
		case conv == 'q':
			return 4*len(str) + 2 // every byte escaped as \xNN at worst, and the quotes
		case conv == 'x' || conv == 'X':
			return 5 * len(str) // "0xNN " per byte at worst (the # and space flags)
		case precision >= 0:
			return min(precision, len(str))
		}
		return len(str)
	}
	if _, ok := v.(lua.LNumber); !ok {
		if _, isString := v.(lua.LString); !isString {
			L.ArgError(n, "number expected, got "+v.Type().String())
		}
	}
	return numberSize + max(precision, 0)
}

// numberSize bounds a number formatted without width or precision: an
// int64 takes 20 bytes, a float64 in %e or %g 24, in %f up to 330
// (1e308 written out).
const numberSize = 330

// TableConcat is table.concat.
func (bd *Bounds) TableConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	n := t.Len()
	i := L.OptInt(3, 1)
	j := L.OptInt(4, n)
	// gopher-lua's index rules, kept for compatibility: the range is
	// clamped to the array, and a lone start outside it gives "".
	if L.GetTop() == 3 && (i > n || i < 1) {
		L.Push(lua.LString(""))
		return 1
	}
	i, j = max(min(i, n), 1), min(j, n)
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	size := 0
	for k := i; k <= j; k++ {
		v := t.RawGetInt(k)
		if !lua.LVCanConvToString(v) {
			L.RaiseError("invalid value (%s) at index %d in table for concat", v.Type().String(), k)
		}
		size += len(lua.LVAsString(v)) + len(sep)
		if size > bd.MaxString {
			bd.checkSize("table.concat", size)
		}
	}
	var b strings.Builder
	b.Grow(size)
	for k := i; k <= j; k++ {
		if k > i {
			b.WriteString(sep)
		}
		b.WriteString(lua.LVAsString(t.RawGetInt(k)))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// OsDate is os.date with a bounded format (its output grows with the format).
func OsDate(date lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if f, ok := L.Get(1).(lua.LString); ok && len(f) > 256 {
			L.ArgError(1, "format longer than 256 bytes")
		}
		return date(L)
	}
}

// Gsub is string.gsub.
func (bd *Bounds) Gsub(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	limit := L.OptInt(4, -1)
	m := newMatcher(L, src, pat)
	var out strings.Builder
	copied, count := 0, 0
	for offset := 0; offset <= len(src) && count != limit; {
		start, end := m.find(offset)
		if start < 0 {
			break
		}
		count++
		if r, ok := replacement(L, m, start, end, repl); ok {
			bd.checkSize("string.gsub", out.Len()+start-copied+len(r)+len(src)-end)
			out.WriteString(src[copied:start])
			out.WriteString(r)
			copied = end
		}
		if strings.HasPrefix(pat, "^") {
			break
		}
		offset = max(start+1, end) // past the match, and on after an empty one
	}
	out.WriteString(src[copied:])
	L.Push(lua.LString(out.String()))
	L.Push(lua.LNumber(count))
	return 2
}

// replacement is what a gsub match becomes; false when it stays as is.
func replacement(L *lua.LState, m *matcher, start, end int, repl lua.LValue) (string, bool) {
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString:
		return m.expand(string(r), start, end), true
	case *lua.LTable:
		v = L.GetTable(r, m.captureValue(0, start, end))
	case *lua.LFunction:
		L.Push(r)
		L.Call(m.pushCaptures(start, end), 1)
		v = L.Get(-1)
		L.Pop(1)
	}
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return v.String(), true
	case lua.LBool:
		if !v {
			return "", false
		}
	case *lua.LNilType:
		return "", false
	}
	L.RaiseError("invalid replacement value (a %s)", v.Type().String())
	return "", false
}

// expand substitutes %0–%9 in a gsub replacement string the way gopher-lua
// does: %0 is the whole match, %% is one %, and % before any other
// character stays as written.
func (m *matcher) expand(repl string, start, end int) string {
	if strings.IndexByte(repl, '%') < 0 {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' || i == len(repl)-1 {
			b.WriteByte(c)
			continue
		}
		i++
		switch n := repl[i]; {
		case n == '%':
			b.WriteByte('%')
		case n == '0':
			b.WriteString(m.src[start:end])
		case n >= '1' && n <= '9':
			b.WriteString(lua.LVAsString(m.captureValue(int(n-'1'), start, end)))
		default:
			b.WriteByte('%')
			b.WriteByte(n)
		}
	}
	return b.String()
}

// Gmatch is string.gmatch: it returns an iterator that finds one match
// per call. As in gopher-lua, a pattern anchored with ^ matches at the
// start only.
func Gmatch(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	anchored := strings.HasPrefix(pat, "^")
	offset := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if offset > len(src) {
			return 0
		}
		m := newMatcher(L, src, pat)
		start, end := m.find(offset)
		switch {
		case start < 0 || anchored:
			offset = len(src) + 1
		default:
			offset = max(start+1, end)
		}
		if start < 0 {
			return 0
		}
		return m.pushCaptures(start, end)
	}))
	return 1
}
