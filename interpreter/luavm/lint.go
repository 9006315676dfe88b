package luavm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/gopher-lua/parse"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
)

// Finding is something a script does that does not fail to compile here
// but fails at run time, or on Karmada: a global it reads that nothing
// sets, a module Karmada's Lua VM does not have.
type Finding struct {
	Line    int // the script's line, from 1
	Message string
}

func (f Finding) String() string { return fmt.Sprintf("Lua line %d: %s", f.Line, f.Message) }

// sandboxGlobals are the globals every call starts with (see newState).
var sandboxGlobals = append([]string{"_G", "print", "require", "pairs", "ipairs", "string", "table", "math", "os"}, baseFunctions...)

// karmadaModules are the modules Karmada's Lua VM lets require load.
var karmadaModules = []string{"kube"}

// Lint reads a script and returns its findings in line order: each global
// it reads that it never assigns and the sandbox does not hold (a module
// used without `local kube = require("kube")`, a misspelt name), and each
// require of a module Karmada's VM does not have (json), where the script
// would fail. globals are further names the script's calls are given
// (the obj of a chunk script, RunChunk). The error is the script's syntax
// error.
func Lint(name, source string, globals ...string) ([]Finding, error) {
	return LintFields(name, source, nil, globals...)
}

// LintFields is Lint, and with fields, a finding for each field path a
// hook function reads or writes on the object it is given that fields
// says the object's kind does not have (see FieldChecker).
func LintFields(name, source string, fields FieldChecker, globals ...string) ([]Finding, error) {
	chunk, err := parse.Parse(strings.NewReader(source), name)
	if err != nil {
		return nil, err
	}
	var params map[string][]int
	if fields != nil {
		params = objectParams
	}
	scan := luasyntax.ScanGlobals(chunk, params)
	var findings []Finding
	if fields != nil {
		findings = fieldFindings(scan.Fields, fields)
	}
	for global, line := range scan.Read {
		if !scan.Assigned[global] && !slices.Contains(sandboxGlobals, global) && !slices.Contains(globals, global) {
			msg := fmt.Sprintf("global %q is read but never assigned, and the sandbox has none", global)
			if _, module := builtinModules[global]; module {
				msg += fmt.Sprintf(" (local %s = require(%q)?)", global, global)
			}
			findings = append(findings, Finding{Line: line, Message: msg})
		}
	}
	for _, r := range scan.Requires {
		if f, ok := requireFinding(r); ok {
			findings = append(findings, f)
		}
	}
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].Line != findings[j].Line {
			return findings[i].Line < findings[j].Line
		}
		return findings[i].Message < findings[j].Message
	})
	return findings, nil
}

// requireFinding is the finding of a require of a module Karmada's VM
// lacks, false for one it has.
func requireFinding(r luasyntax.Require) (Finding, bool) {
	if slices.Contains(karmadaModules, r.Module) {
		return Finding{}, false
	}
	msg := fmt.Sprintf("require(%q): Karmada's Lua VM has no module %q, so the script fails there", r.Module, r.Module)
	if _, here := builtinModules[r.Module]; !here {
		msg = fmt.Sprintf("require(%q): no such module (require loads %s)", r.Module, strings.Join(sortedKeys(builtinModules), ", "))
	}
	return Finding{Line: r.Line, Message: msg}, true
}
