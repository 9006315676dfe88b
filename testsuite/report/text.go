package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// Text writes results as `go test -v` does, as they come.
type Text struct {
	w io.Writer
}

// NewText returns a Text writing to w.
func NewText(w io.Writer) *Text { return &Text{w: w} }

// NotLoaded reports a suite that could not be loaded, with every error.
func (t *Text) NotLoaded(name string, err error) {
	fmt.Fprintf(t.w, "--- FAIL: %s (not loaded)\n", name)
	t.block(1, err.Error())
}

// Result reports one case; a skipped case is only counted.
func (t *Text) Result(r *testsuite.Result) {
	switch r.Status {
	case testsuite.Pass:
		fmt.Fprintf(t.w, "--- PASS: %s (%.2fs)\n", r.Name, r.Duration.Seconds())
		if len(r.Unchecked) > 0 {
			t.block(1, "unchecked: "+strings.Join(r.Unchecked, ", "))
		}
	case testsuite.Fail:
		fmt.Fprintf(t.w, "--- FAIL: %s (%.2fs)\n", r.Name, r.Duration.Seconds())
		t.block(1, failureSource(r).String())
		for _, f := range r.Failures {
			t.block(1, f)
		}
		if len(r.Differences) > 0 {
			t.block(1, "diff (-expected +actual):")
			t.block(2, compare.Format(r.Differences))
		}
		if r.Output != "" {
			t.block(1, "print output:")
			t.block(2, r.Output)
		}
	}
}

// Summary writes the closing line.
func (t *Text) Summary(c Counts) {
	fmt.Fprintf(t.w, "%d passed, %d failed", c.Passed, c.Failed)
	if c.Skipped > 0 {
		fmt.Fprintf(t.w, ", %d skipped", c.Skipped)
	}
	switch {
	case c.NotLoaded == 1:
		fmt.Fprint(t.w, ", 1 suite not loaded")
	case c.NotLoaded > 1:
		fmt.Fprintf(t.w, ", %d suites not loaded", c.NotLoaded)
	}
	fmt.Fprintln(t.w)
}

// block writes text indented by depth levels of four spaces.
func (t *Text) block(depth int, text string) {
	indent := strings.Repeat("    ", depth)
	for line := range strings.Lines(strings.TrimSuffix(text, "\n") + "\n") {
		fmt.Fprint(t.w, indent+line)
	}
}

// failureSource is where a failed case is shown to fail: the line of the
// expected value of its first difference, else the start of the case.
func failureSource(r *testsuite.Result) testsuite.Source {
	if len(r.Differences) > 0 {
		return r.Case.OutputSource(r.Differences[0].Path)
	}
	return r.Case.Source
}
