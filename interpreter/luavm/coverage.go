package luavm

import (
	"slices"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
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

// BranchCount is how many times one branch of an if statement ran.
type BranchCount struct {
	Line  int // the if statement's
	Block int // which if statement of the line, from 0
	Index int // 0 for the then block, 1 for the else block (written or not)
	// SameLine is whether the branch's code starts on the if's line, as in
	// `if c then x end`; such a line counts as run only once it ran.
	SameLine bool
	Hits     int
}

type scriptCoverage struct {
	cov      *Coverage
	hits     map[int]int // executable line → hits
	branches []BranchCount
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

// Branches returns the branches of the if statements of the named script
// with their hit counts, in line order; nil for a script it does not know.
func (c *Coverage) Branches(script string) []BranchCount {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := c.scripts[script]
	if sc == nil {
		return nil
	}
	return slices.Clone(sc.branches)
}

// register records the executable lines and the branches of a script
// compiled under name. A script compiled again under the same name keeps
// its counts; the branches are those of its text, which a name stands for.
func (c *Coverage) register(name string, lines []int, branches []luasyntax.Branch) *scriptCoverage {
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
	if sc.branches == nil {
		for _, b := range branches {
			sc.branches = append(sc.branches, BranchCount{Line: b.Line, Block: b.Block, Index: b.Index, SameLine: b.SameLine})
		}
	}
	return sc
}

func (sc *scriptCoverage) hit(line int) {
	sc.cov.mu.Lock()
	sc.hits[line]++
	sc.cov.mu.Unlock()
}

// hitBranch counts a run of branch n (from 1, as the rewritten chunk numbers them).
func (sc *scriptCoverage) hitBranch(n int) {
	sc.cov.mu.Lock()
	if n >= 1 && n <= len(sc.branches) {
		sc.branches[n-1].Hits++
	}
	sc.cov.mu.Unlock()
}

// counter returns the Lua function the rewritten chunk calls before each statement.
func (sc *scriptCoverage) counter(L *lua.LState) *lua.LFunction {
	return L.NewFunction(func(L *lua.LState) int {
		if L.GetTop() >= 2 {
			sc.hitBranch(int(L.CheckNumber(2)))
		} else {
			sc.hit(int(L.CheckNumber(1)))
		}
		return 0
	})
}
