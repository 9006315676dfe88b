package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
)

// ScriptCoverage is which lines of one script the cases ran.
type ScriptCoverage struct {
	Suite         string                `json:"suite"`
	Customization string                `json:"customization"`
	Operation     interpreter.Operation `json:"operation,omitempty"` // none for an Argo CD action script
	// File and Line locate the script: the file line of its first line
	// (0 when unknown).
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Source string `json:"-"`
	// Hits maps each executable line of the script (counting from 1) to
	// how many times it ran.
	Hits map[int]int `json:"hits"`
	// Branches are the branches of the script's if statements, in line
	// order.
	Branches []luavm.BranchCount `json:"branches,omitempty"`
	// Exercised says whether a case that ran called the hook: its
	// operation on an object of the customization's target kind. A
	// script's first lines run when it is loaded, so hits alone cannot say.
	Exercised bool `json:"exercised"`
}

// Covered returns how many executable lines ran, and how many there are.
// A line holding the code of a branch of an if statement on its own line
// (`if c then x end`) counts as run only once that branch ran.
func (s *ScriptCoverage) Covered() (ran, total int) {
	for line := range s.Hits {
		if s.lineRan(line) {
			ran++
		}
	}
	return ran, len(s.Hits)
}

func (s *ScriptCoverage) lineRan(line int) bool {
	if s.Hits[line] == 0 {
		return false
	}
	for _, b := range s.Branches {
		if b.Line == line && b.SameLine && b.Hits == 0 {
			return false
		}
	}
	return true
}

// BranchesCovered returns how many branches of if statements ran, and how
// many there are.
func (s *ScriptCoverage) BranchesCovered() (ran, total int) {
	for _, b := range s.Branches {
		if b.Hits > 0 {
			ran++
		}
	}
	return ran, len(s.Branches)
}

// Percent is the share of executable lines that ran; 100 for a script
// with none.
func (s *ScriptCoverage) Percent() float64 {
	ran, total := s.Covered()
	if total == 0 {
		return 100
	}
	return 100 * float64(ran) / float64(total)
}

// where locates the script: "file:line", or the file when the line is
// not known.
func (s *ScriptCoverage) where() string {
	if s.Line > 0 {
		return s.File + ":" + strconv.Itoa(s.Line)
	}
	return s.File
}

// WriteCoverage writes one line per script: suite, customization, key,
// lines run out of executable lines, and where the script is. With
// listing, each line is followed by the script, every line prefixed with
// its number and its hit count ("-" for a line that is not executable,
// "#####" for one that never ran). A total over every script follows,
// then the hooks no case called, each with its Lua function and where it
// is defined.
func WriteCoverage(w io.Writer, scripts []*ScriptCoverage, listing bool) {
	fmt.Fprintln(w, "coverage:")
	allRan, allTotal := 0, 0
	var unexercised []*ScriptCoverage
	for _, s := range scripts {
		ran, total := s.Covered()
		allRan, allTotal = allRan+ran, allTotal+total
		branches := ""
		if bran, btotal := s.BranchesCovered(); btotal > 0 {
			branches = fmt.Sprintf(", %d of %d branches", bran, btotal)
		}
		fmt.Fprintf(w, "    %s: %s %s: %d of %d lines (%.1f%%)%s %s\n",
			s.Suite, s.Customization, s.Operation.CustomizationKey(), ran, total, s.Percent(), branches, s.where())
		if listing {
			writeListing(w, s)
		}
		if !s.Exercised {
			unexercised = append(unexercised, s)
		}
	}
	fmt.Fprintf(w, "total: %d of %d lines (%.1f%%), %d of %d hooks exercised\n",
		allRan, allTotal, TotalPercent(scripts), len(scripts)-len(unexercised), len(scripts))
	if len(unexercised) == 0 {
		return
	}
	fmt.Fprintln(w, "hooks no case exercises:")
	for _, s := range unexercised {
		fmt.Fprintf(w, "    %s: %s %s (%s) %s\n", s.Suite, s.Customization, s.Operation.CustomizationKey(), s.Operation.LuaFunction(), s.where())
	}
}

func writeListing(w io.Writer, s *ScriptCoverage) {
	lines := strings.Split(strings.TrimSuffix(s.Source, "\n"), "\n")
	for i, text := range lines {
		count := "-"
		if n, ok := s.Hits[i+1]; ok {
			count = strconv.Itoa(n)
			if n == 0 {
				count = "#####"
			}
		}
		fmt.Fprintf(w, "        %4d %6s | %s%s\n", i+1, count, text, s.branchNote(i+1))
	}
}

// branchNote marks a line that ran with a branch that did not: the if
// statements' branches never taken, as "then" and "else".
func (s *ScriptCoverage) branchNote(line int) string {
	if s.Hits[line] == 0 {
		return ""
	}
	var missed []string
	for _, b := range s.Branches {
		if b.Line == line && b.Hits == 0 {
			missed = append(missed, [...]string{"then", "else"}[b.Index])
		}
	}
	if len(missed) == 0 {
		return ""
	}
	return "    <- never took: " + strings.Join(missed, ", ")
}

// Coverage returns the coverage of every script of a suite's
// customizations, in name and operation order, from the coverage its
// engine recorded and the results of the suite's cases.
func Coverage(suite string, set *customization.Set, cov *luavm.Coverage, results []*testsuite.Result) []*ScriptCoverage {
	called := map[hook]bool{}
	for _, r := range results {
		if req, err := r.Case.Request(); r.Status != testsuite.Skip && r.Case.Err == nil && err == nil {
			called[hook{req.Object.GroupVersionKind(), r.Case.Operation}] = true
		}
	}
	var scripts []*ScriptCoverage
	for _, c := range set.Customizations {
		for _, op := range c.Operations() {
			s, _ := c.Script(op)
			hits := map[int]int{}
			for _, l := range cov.Lines(s.Name) {
				hits[l.Line] = l.Hits
			}
			scripts = append(scripts, &ScriptCoverage{
				Suite: suite, Customization: c.Name, Operation: op,
				File: c.Position.File, Line: s.Line, Source: s.Source, Hits: hits,
				Branches: cov.Branches(s.Name), Exercised: called[hook{c.Target, op}],
			})
		}
	}
	return scripts
}

// hook is what a case calls: an operation for a kind.
type hook struct {
	kind      schema.GroupVersionKind
	operation interpreter.Operation
}
