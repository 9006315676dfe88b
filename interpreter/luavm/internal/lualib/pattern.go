package lualib

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Lua pattern matching, after Lua 5.1's lstrlib.c, for string.find, match,
// gmatch and gsub (see the package doc for why).

const (
	maxCaptures     = 32
	maxPatternDepth = 200  // nested pattern items, as C Lua bounds its recursion
	stepsPerCheck   = 4096 // matching steps between two looks at the context
	capUnfinished   = -1
	capPosition     = -2
)

type capture struct{ start, len int }

// matcher matches one pattern against one subject.
type matcher struct {
	L        *lua.LState
	src, pat string
	level    int // captures open or closed so far
	capture  [maxCaptures]capture
	depth    int
	steps    int
}

// fail raises a Lua error about the pattern.
func (m *matcher) fail(format string, args ...any) {
	m.L.RaiseError("%s", fmt.Sprintf(format, args...))
}

// step counts one unit of matching work and stops a call past its deadline.
func (m *matcher) step() {
	if m.steps++; m.steps%stepsPerCheck == 0 {
		CheckContext(m.L)
	}
}

// at returns the subject byte at s, or 0 past its end (as C reads the
// string's terminating NUL).
func (m *matcher) at(s int) byte {
	if s < len(m.src) {
		return m.src[s]
	}
	return 0
}

// patAt returns the pattern byte at p, or 0 past its end.
func (m *matcher) patAt(p int) byte {
	if p < len(m.pat) {
		return m.pat[p]
	}
	return 0
}

// classEnd returns the index just past the single-character class at p.
func (m *matcher) classEnd(p int) int {
	c := m.patAt(p)
	p++
	switch c {
	case '%':
		if p >= len(m.pat) {
			m.fail("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if m.patAt(p) == '^' {
			p++
		}
		for { // look for a ']'
			if p >= len(m.pat) {
				m.fail("malformed pattern (missing ']')")
			}
			c := m.pat[p]
			p++
			if c == '%' && p < len(m.pat) {
				p++ // skip escapes such as %]
			}
			if m.patAt(p) == ']' {
				return p + 1
			}
		}
	}
	return p
}

func matchClass(c, class byte) bool {
	var res bool
	switch class | 0x20 { // lower case
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = c < 0x20 || c == 0x7f
	case 'd':
		res = '0' <= c && c <= '9'
	case 'l':
		res = 'a' <= c && c <= 'z'
	case 'p':
		res = c > 0x20 && c < 0x7f && !isAlpha(c) && !('0' <= c && c <= '9')
	case 's':
		res = c == ' ' || ('\t' <= c && c <= '\r')
	case 'u':
		res = 'A' <= c && c <= 'Z'
	case 'w':
		res = isAlpha(c) || ('0' <= c && c <= '9')
	case 'x':
		res = ('0' <= c && c <= '9') || ('a' <= c|0x20 && c|0x20 <= 'f')
	case 'z':
		res = c == 0
	default:
		return class == c
	}
	if 'A' <= class && class <= 'Z' {
		return !res
	}
	return res
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// matchBracketClass matches c against the set [...] from p to ec (the ']').
func (m *matcher) matchBracketClass(c byte, p, ec int) bool {
	sig := true
	if m.patAt(p+1) == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case m.pat[p] == '%':
			p++
			if matchClass(c, m.patAt(p)) {
				return sig
			}
		case m.patAt(p+1) == '-' && p+2 < ec:
			p += 2
			if m.pat[p-2] <= c && c <= m.pat[p] {
				return sig
			}
		case m.pat[p] == c:
			return sig
		}
	}
	return !sig
}

// singleMatch matches the subject byte at s against the class from p to ep.
func (m *matcher) singleMatch(s, p, ep int) bool {
	if s >= len(m.src) {
		return false
	}
	c := m.src[s]
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.patAt(p+1))
	case '[':
		return m.matchBracketClass(c, p, ep-1)
	}
	return m.pat[p] == c
}

// match matches the pattern from p at subject position s and returns where
// the match ends, or -1.
func (m *matcher) match(s, p int) int {
	if m.depth++; m.depth > maxPatternDepth {
		m.fail("pattern too complex")
	}
	defer func() { m.depth-- }()
	for {
		m.step()
		if p >= len(m.pat) {
			return s // end of pattern: a match
		}
		switch m.pat[p] {
		case '(':
			if m.patAt(p+1) == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(m.pat) {
				if s == len(m.src) {
					return s
				}
				return -1
			}
		case '%':
			switch next := m.patAt(p + 1); {
			case next == 'b':
				if s = m.matchBalance(s, p+2); s < 0 {
					return -1
				}
				p += 4
				continue
			case next == 'f':
				p += 2
				if m.patAt(p) != '[' {
					m.fail("missing '[' after '%%f' in pattern")
				}
				ep := m.classEnd(p)
				var prev byte
				if s > 0 {
					prev = m.src[s-1]
				}
				if m.matchBracketClass(prev, p, ep-1) || !m.matchBracketClass(m.at(s), p, ep-1) {
					return -1
				}
				p = ep
				continue
			case '0' <= next && next <= '9':
				if s = m.matchCapture(s, next); s < 0 {
					return -1
				}
				p += 2
				continue
			}
		}
		// A single-character class, maybe with a quantifier.
		ep := m.classEnd(p)
		matched := m.singleMatch(s, p, ep)
		switch m.patAt(ep) {
		case '?':
			if matched {
				if res := m.match(s+1, ep+1); res >= 0 {
					return res
				}
			}
			p = ep + 1
		case '*':
			return m.maxExpand(s, p, ep)
		case '+':
			if !matched {
				return -1
			}
			return m.maxExpand(s+1, p, ep)
		case '-':
			return m.minExpand(s, p, ep)
		default:
			if !matched {
				return -1
			}
			s, p = s+1, ep
		}
	}
}

func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for m.singleMatch(s+i, p, ep) {
		m.step()
		i++
	}
	for ; i >= 0; i-- { // the longest repetition that lets the rest match
		if res := m.match(s+i, ep+1); res >= 0 {
			return res
		}
	}
	return -1
}

func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if res := m.match(s, ep+1); res >= 0 {
			return res
		}
		if !m.singleMatch(s, p, ep) {
			return -1
		}
		s++
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.fail("too many captures")
	}
	m.capture[m.level] = capture{start: s, len: what}
	m.level++
	res := m.match(s, p)
	if res < 0 {
		m.level-- // undo the capture
	}
	return res
}

func (m *matcher) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.capture[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		m.fail("invalid pattern capture")
	}
	m.capture[l].len = s - m.capture[l].start
	res := m.match(s, p)
	if res < 0 {
		m.capture[l].len = capUnfinished // undo the capture
	}
	return res
}

func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.fail("unbalanced pattern")
	}
	if s >= len(m.src) || m.src[s] != m.pat[p] {
		return -1
	}
	open, close, depth := m.pat[p], m.pat[p+1], 1
	for s++; s < len(m.src); s++ {
		m.step()
		switch m.src[s] {
		case close:
			if depth--; depth == 0 {
				return s + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

func (m *matcher) matchCapture(s int, digit byte) int {
	l := int(digit - '1')
	if l < 0 || l >= m.level || m.capture[l].len == capUnfinished {
		m.fail("invalid capture index")
	}
	c := m.capture[l]
	// A position capture has no text: C Lua compares its length (-2) as
	// an unsigned size, so a back reference to one never matches.
	if c.len >= 0 && len(m.src)-s >= c.len && m.src[c.start:c.start+c.len] == m.src[s:s+c.len] {
		return s + c.len
	}
	return -1
}

// find returns the first match at or after init: its start and end, or -1.
// An anchored pattern (^) is tried at init only.
func (m *matcher) find(init int) (int, int) {
	p := 0
	anchored := strings.HasPrefix(m.pat, "^")
	if anchored {
		p = 1
	}
	for s := init; s <= len(m.src); s++ {
		m.level = 0
		if e := m.match(s, p); e >= 0 {
			return s, e
		}
		if anchored {
			break
		}
	}
	return -1, -1
}

// captureValue returns capture i of a match from start to end: the whole
// match for capture 0 of a pattern without captures.
func (m *matcher) captureValue(i, start, end int) lua.LValue {
	if i >= m.level {
		if i != 0 {
			m.fail("invalid capture index")
		}
		return lua.LString(m.src[start:end])
	}
	c := m.capture[i]
	switch c.len {
	case capUnfinished:
		m.fail("unfinished capture")
	case capPosition:
		return lua.LNumber(c.start + 1)
	}
	return lua.LString(m.src[c.start : c.start+c.len])
}

// pushCaptures pushes the captures of a match (the whole match when the
// pattern has none) and returns how many it pushed.
func (m *matcher) pushCaptures(start, end int) int {
	n := max(m.level, 1)
	for i := range n {
		m.L.Push(m.captureValue(i, start, end))
	}
	return n
}

func newMatcher(L *lua.LState, src, pat string) *matcher {
	return &matcher{L: L, src: src, pat: pat}
}

// initArg reads the optional start position of find and match (1-based,
// negative from the end) as a 0-based index into s.
func initArg(L *lua.LState, n int, s string) int {
	init := L.OptInt(n, 1)
	if init < 0 {
		init += len(s) + 1
	}
	return min(max(init-1, 0), len(s))
}

// Find is string.find.
func Find(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	init := initArg(L, 3, src)
	if L.ToBool(4) || !strings.ContainsAny(pat, "^$*+?.([%-") {
		if i := strings.Index(src[init:], pat); i >= 0 {
			L.Push(lua.LNumber(init + i + 1))
			L.Push(lua.LNumber(init + i + len(pat)))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	m := newMatcher(L, src, pat)
	start, end := m.find(init)
	if start < 0 {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(start + 1))
	L.Push(lua.LNumber(end))
	if m.level == 0 {
		return 2
	}
	return 2 + m.pushCaptures(start, end)
}

// Match is string.match.
func Match(L *lua.LState) int {
	src, pat := L.CheckString(1), L.CheckString(2)
	m := newMatcher(L, src, pat)
	start, end := m.find(initArg(L, 3, src))
	if start < 0 {
		L.Push(lua.LNil)
		return 1
	}
	return m.pushCaptures(start, end)
}

// CheckContext raises the error of L's context if the call was stopped,
// for Go loops that would otherwise run past the deadline.
func CheckContext(L *lua.LState) {
	if ctx := L.Context(); ctx != nil && ctx.Err() != nil {
		L.RaiseError("%s", ctx.Err().Error())
	}
}
