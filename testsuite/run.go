package testsuite

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// Status is the verdict on a case.
type Status string

// The verdicts.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Result is the outcome of running one case.
type Result struct {
	// Name is how the case is shown and selected: its operation and name,
	// after the suite's name when run as part of a suite
	// ("apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/ready").
	Name   string
	Case   *Case
	Status Status
	// Failures say why the case failed, apart from Differences.
	Failures []string
	// Differences are where the results differ from the expected output.
	Differences []compare.Difference
	// Unchecked names the results the operation produced that the case
	// does not check.
	Unchecked []string
	// Results are what the operation returned, as JSON values by result
	// name; nil when it failed before returning any.
	Results map[string]any
	// Err is the operation's error, expected or not.
	Err error
	// Output is what the scripts printed while the case ran.
	Output   string
	Duration time.Duration
}

// Run runs c against in and judges the outcome: the case passes when the
// operation fails if and only if the case expects it to, and every result
// named in the case's output equals the expected value (see package
// compare for what equal means).
func Run(ctx context.Context, in interpreter.Interpreter, c *Case) *Result {
	r := &Result{Name: c.Operation.String() + "/" + c.Name, Case: c}
	r.judge(ctx, in)
	r.Status = Pass
	if len(r.Failures) > 0 || len(r.Differences) > 0 {
		r.Status = Fail
	}
	return r
}

func (r *Result) fail(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// unread fails a case that could not be read, with every error of its
// document, each located by line when its line is not the case's.
func (r *Result) unread() {
	errs := manifest.Errors(r.Case.Err)
	if len(errs) == 0 {
		r.fail("%v", r.Case.Err)
	}
	for _, e := range errs {
		if e.Line != r.Case.Source.Line {
			r.fail("line %d: %v", e.Line, e.Err)
		} else {
			r.fail("%v", e.Err)
		}
	}
}

func (r *Result) judge(ctx context.Context, in interpreter.Interpreter) {
	c := r.Case
	if c.Err != nil {
		r.unread()
		return
	}
	op := c.Operation
	names := op.ResultNames()
	for _, key := range slices.Sorted(maps.Keys(c.Output)) {
		if !slices.Contains(names, key) {
			r.fail("output key %q is not a result of %s, which produces %s", key, op, strings.Join(names, ", "))
		}
	}
	req, err := c.Request()
	if err != nil {
		r.fail("%v", err)
		return
	}
	pristine := [2]any{req.Object.DeepCopy(), req.ObservedObject.DeepCopy()}

	var printed printBuffer
	start := time.Now()
	resp, err := invoke(luavm.ContextWithPrint(ctx, printed.line), in, req)
	r.Duration = time.Since(start)
	r.Output = printed.String()
	r.Err = err

	if !equality.Semantic.DeepEqual(pristine, [2]any{req.Object, req.ObservedObject}) {
		r.fail("%s modified its input object", op)
	}
	switch {
	case err != nil && !c.ExpectError:
		r.fail("%s failed: %v", op, err)
		return
	case err == nil && c.ExpectError:
		r.fail("%s succeeded, expected an error%s", op, containing(c.ErrorContains))
	case err != nil && !strings.Contains(err.Error(), c.ErrorContains):
		r.fail("%s failed with %q, expected an error%s", op, err.Error(), containing(c.ErrorContains))
	}
	if err != nil && c.Output == nil {
		return
	}
	results, nerr := compare.Normalize(resp.Results())
	if nerr != nil {
		r.fail("%s returned results that are not JSON: %v", op, nerr)
		return
	}
	r.Results, _ = results.(map[string]any)
	r.Differences, r.Unchecked = c.Compare(r.Results)
}

// Compare compares the results of the case's operation, JSON values by
// result name (see compare.Normalize), with the case's output: it returns
// where they differ, dependencies and components compared in any order,
// and the results the output does not name.
func (c *Case) Compare(results map[string]any) (differences []compare.Difference, unchecked []string) {
	for _, name := range c.Operation.ResultNames() {
		want, ok := c.Output[name]
		if !ok {
			unchecked = append(unchecked, name)
			continue
		}
		opts := []compare.Option{compare.At(name)}
		if name == "dependencies" || name == "components" {
			opts = append(opts, compare.Unordered())
		}
		differences = append(differences, compare.Diff(want, results[name], opts...)...)
	}
	return differences, unchecked
}

// invoke runs the request, turning a panic of the interpreter into an error.
func invoke(ctx context.Context, in interpreter.Interpreter, req interpreter.Request) (resp interpreter.Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	if err := req.Validate(); err != nil {
		return interpreter.Response{Operation: req.Operation}, err
	}
	return in.Interpret(ctx, req)
}

// printBuffer collects the lines scripts print; scripts of one call may
// print from several goroutines.
type printBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (p *printBuffer) line(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.WriteString(text + "\n")
}

func (p *printBuffer) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

func containing(text string) string {
	if text == "" {
		return ""
	}
	return fmt.Sprintf(" containing %q", text)
}
