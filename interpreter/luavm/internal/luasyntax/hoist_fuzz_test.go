package luasyntax_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// FuzzHoist makes a program from the fuzzed bytes, out of the things that
// decide whether a hoisted chain still stands for the chain: reads of
// chains, writes of their fields and tables, calls of a function that
// writes, reassigned names and keys, new locals, branches and loops. Run
// as written and hoisted, it must give the same results (every local,
// and the whole input table as it ends) or the same error at the same
// line.
func FuzzHoist(f *testing.F) {
	for _, seed := range []string{
		"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d",
		"\x06\x00\x01\x00\x02\x07\x00\x03\x00\x04\x05",
		"\x07\x00\x00\x01\x02\x00\x08\x00\x00",
		"\x0b\x00\x01\x00\x02\x03\x00\x00\x04",
		"\x0c\x06\x05\x00\x02\x00\x00\x01\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 200 {
			return
		}
		source := hoistProgram(data)
		want, wantErr, _ := runHoisted(t, source, false)
		got, gotErr, _ := runHoisted(t, source, true)
		assert.Equal(t, wantErr, gotErr, "%s", source)
		assert.Equal(t, want, got, "%s", source)
	})
}

// hoistChains are the chains the programs read: numbers, a string, a
// table, all under the input table a, through the index i, or through
// the alias b.
var hoistChains = []string{
	"a.b.c", "a.b.d", "a.b.e.f", "a.items[i].status.replicas", "a.items[1].status.ready",
	"b.status.replicas", "a.items[i].status.name", "a.b.e",
}

// hoistTargets are chains a program writes.
var hoistTargets = []string{"a.b.c", "a.b.e.f", "a.items[i].status.replicas", "b.status.replicas", "a.b.d"}

type programGen struct {
	data  []byte
	lines []string
	depth int
	loops int
}

func (g *programGen) next() int {
	if len(g.data) == 0 {
		return -1
	}
	b := int(g.data[0])
	g.data = g.data[1:]
	return b
}

func (g *programGen) pick(list []string) string {
	n := g.next()
	if n < 0 {
		n = 0
	}
	return list[n%len(list)]
}

func (g *programGen) line(format string, args ...any) {
	g.lines = append(g.lines, strings.Repeat("  ", g.depth)+fmt.Sprintf(format, args...))
}

// stmts writes statements until the bytes run out or a 0xff ends a block.
func (g *programGen) stmts() {
	for n := 0; n < 12; n++ {
		op := g.next()
		if op < 0 || op == 0xff {
			return
		}
		g.stmt(op)
	}
}

func (g *programGen) block(open, close string) {
	if g.depth >= 3 {
		return
	}
	g.line("%s", open)
	g.depth++
	g.stmts()
	g.depth--
	g.line("%s", close)
}

func (g *programGen) stmt(op int) {
	switch op % 16 {
	case 0:
		g.line("x = x + %s", g.pick(hoistChains))
	case 1:
		g.line("y = %s", g.pick(hoistChains))
	case 2:
		g.line("%s = %d", g.pick(hoistTargets), g.next())
	case 3:
		g.line("a.b = {c = %d, d = 1, e = {f = 2}}", g.next())
	case 4:
		g.line("a.items[i].status = nil")
	case 5:
		g.line("i = i %% 4 + 1")
	case 6:
		g.block(fmt.Sprintf("if %s ~= nil then", g.pick(hoistChains)), "end")
	case 7:
		g.block("for j = 1, 2 do", "end")
	case 8:
		g.line("bump()")
	case 9:
		g.block("do local i = 2", "end")
	case 10:
		g.line("local z = %s + %s", g.pick(hoistChains), g.pick(hoistChains))
	case 11: // a counter of its own, which nothing else resets
		g.loops++
		g.line("local k%d = 0", g.loops)
		g.block(fmt.Sprintf("while k%[1]d < 2 do k%[1]d = k%[1]d + 1", g.loops), "end")
	case 12:
		g.line("b = a.items[i]")
	case 13:
		if g.depth >= 3 {
			return
		}
		g.block(fmt.Sprintf("if x > %d then", g.next()), "else")
		g.depth++
		g.line("y = %s", g.pick(hoistChains))
		g.depth--
		g.line("end")
	case 14:
		g.line("x = x + (%s or 0) + (%s or 0)", g.pick(hoistChains), g.pick(hoistChains))
	case 15: // a method of whatever y holds, looked up before its arguments
		g.line("local w = y:upper(%s, %s)", g.pick(hoistChains), g.pick(hoistChains))
	}
}

// hoistProgram makes a program from data (see FuzzHoist).
func hoistProgram(data []byte) string {
	g := &programGen{data: data}
	g.stmts()
	return hoistInput + `local i, x, y = 1, 0, nil
local b = a.items[2]
local function bump() a.b.c = a.b.c + 1 a.items[i].status.replicas = 0 end
` + strings.Join(g.lines, "\n") + "\nreturn x, y, i, a\n"
}
