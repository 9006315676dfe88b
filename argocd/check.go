package argocd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// CheckVerdict is the outcome of checking one script.
type CheckVerdict string

// The verdicts.
const (
	CheckPass  CheckVerdict = "PASS"
	CheckWarn  CheckVerdict = "WARN"
	CheckError CheckVerdict = "ERROR"
)

// CheckResult is what checking one script found.
type CheckResult struct {
	Script  *Script
	Verdict CheckVerdict
	// Problems are the compile error (ERROR) or the linter's findings (WARN).
	Problems []string
}

func (r CheckResult) String() string {
	line := fmt.Sprintf("%-5s %s", r.Verdict, r.Script.Name)
	if len(r.Problems) > 0 {
		line += ": " + strings.Join(r.Problems, "; ")
	}
	return line
}

// chunkGlobals are the globals a chunk script gets besides the sandbox's.
var chunkGlobals = []string{"obj", "actionParams", "getmetatable", "setmetatable"}

// Check compiles every script of c on engine and lints it (luavm.Lint,
// knowing the globals chunk scripts get), in the order of c's kinds.
func Check(engine *luavm.Engine, c *Customizations) []CheckResult {
	var results []CheckResult
	for _, s := range c.Scripts() {
		r := CheckResult{Script: s, Verdict: CheckPass}
		if _, err := engine.Compile(s.Name, s.Source); err != nil {
			r.Verdict, r.Problems = CheckError, []string{compileProblem(err)}
		} else if findings, err := luavm.Lint(s.Name, s.Source, chunkGlobals...); err == nil && len(findings) > 0 {
			r.Verdict = CheckWarn
			for _, f := range findings {
				r.Problems = append(r.Problems, f.String())
			}
		}
		results = append(results, r)
	}
	return results
}

// compileProblem is a compile error without the script's name, which the
// result's line shows already.
func compileProblem(err error) string {
	var se *interpreter.ScriptError
	if errors.As(err, &se) {
		msg := se.Err.Error()
		if se.Line > 0 {
			msg = fmt.Sprintf("Lua line %d: %s", se.Line, msg)
		}
		return msg
	}
	return err.Error()
}

// Scripts returns every script of c: the overrides', then the tree's, by key.
func (c *Customizations) Scripts() []*Script {
	var out []*Script
	addActions := func(a *Actions) {
		if a == nil {
			return
		}
		if a.Discovery != nil {
			out = append(out, a.Discovery)
		}
		for _, name := range sortedKeys(a.ByName) {
			out = append(out, a.ByName[name])
		}
	}
	for _, k := range sortedKeys(c.overrides) {
		o := c.overrides[k]
		if o.Health != nil {
			out = append(out, o.Health)
		}
		addActions(o.Actions)
	}
	if c.Tree != nil {
		for _, f := range c.Tree.Folders() {
			if f.Health != nil {
				out = append(out, f.Health)
			}
			addActions(f.Actions)
		}
	}
	return out
}
