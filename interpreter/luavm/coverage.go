package luavm

import (
	"slices"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// Coverage counts, per script name, how often each executable line ran.
// Pass one to WithCoverage; it is safe for concurrent use, and several
// engines may share it.
type Coverage struct {
	mu      sync.Mutex
	scripts map[string]*scriptCoverage
}

// LineCount is how many times one line ran.
type LineCount struct {
	Line int
	Hits int
}

type scriptCoverage struct {
	cov  *Coverage
	hits map[int]int // executable line → hits
}

// NewCoverage returns an empty Coverage.
func NewCoverage() *Coverage { return &Coverage{scripts: map[string]*scriptCoverage{}} }

// Scripts returns the names of the scripts compiled with this coverage, sorted.
func (c *Coverage) Scripts() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(c.scripts))
	for name := range c.scripts {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lines returns the executable lines of the named script with their hit
// counts, in line order; nil for a script it does not know.
func (c *Coverage) Lines(script string) []LineCount {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := c.scripts[script]
	if sc == nil {
		return nil
	}
	lines := make([]LineCount, 0, len(sc.hits))
	for line, hits := range sc.hits {
		lines = append(lines, LineCount{Line: line, Hits: hits})
	}
	slices.SortFunc(lines, func(a, b LineCount) int { return a.Line - b.Line })
	return lines
}

// register records the executable lines of a script compiled under name.
func (c *Coverage) register(name string, lines []int) *scriptCoverage {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := c.scripts[name]
	if sc == nil {
		sc = &scriptCoverage{cov: c, hits: make(map[int]int, len(lines))}
		c.scripts[name] = sc
	}
	for _, line := range lines {
		if _, ok := sc.hits[line]; !ok {
			sc.hits[line] = 0
		}
	}
	return sc
}

func (sc *scriptCoverage) hit(line int) {
	sc.cov.mu.Lock()
	sc.hits[line]++
	sc.cov.mu.Unlock()
}

// counter returns the Lua function the rewritten chunk calls before each statement.
func (sc *scriptCoverage) counter(L *lua.LState) *lua.LFunction {
	return L.NewFunction(func(L *lua.LState) int {
		sc.hit(int(L.CheckNumber(1)))
		return 0
	})
}
