package argocd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// RunTests runs the cases of a tree folder's health_test.yaml and
// actions/action_test.yaml as Argo CD's own tests judge them, each
// against the script the case's input object selects (which may be
// another folder's, or an override's). A case is named
// <folder>/health/<inputPath>, <folder>/discovery/<inputPath> or
// <folder>/action/<action>/<inputPath> (with #2, #3 after a name already
// used), and runs when selected (nil for
// all) matches its name, else it is skipped; each gets every result as
// it is judged. A file that cannot be read is one failed case holding the
// error (with strict, a file holding a key Argo CD would ignore is one
// too); a case whose script fails, fails alone.
func (in *Interpreter) RunTests(ctx context.Context, f *Folder, o TestOptions) []*testsuite.Result {
	selected, each := o.Selected, o.Each
	var results []*testsuite.Result
	seen := map[string]int{}
	add := func(r *testsuite.Result) {
		if seen[r.Name]++; seen[r.Name] > 1 {
			r.Name += fmt.Sprintf("#%d", seen[r.Name])
		}
		results = append(results, r)
		if each != nil {
			each(r)
		}
	}
	for _, path := range f.Tests {
		tf, err := readTestFile(path, o.Strict)
		if err != nil {
			add(&testsuite.Result{Name: f.Key + "/" + filepath.Base(path), Status: testsuite.Fail, Err: err,
				Failures: []string{err.Error()},
				Case:     &testsuite.Case{Name: filepath.Base(path), Source: source(path, 0), Err: err}})
			continue
		}
		dir := filepath.Dir(path)
		for i, c := range tf.health {
			add(in.judge(ctx, f.Key+"/health/"+c.InputPath, &testsuite.Case{Name: c.InputPath, Operation: interpreter.InterpretHealth,
				Source: source(path, tf.line("tests", i))}, selected, func(r *testsuite.Result) { in.healthCase(ctx, r, dir, c) }))
		}
		for i, c := range tf.disc {
			add(in.judge(ctx, f.Key+"/discovery/"+c.InputPath, &testsuite.Case{Name: c.InputPath,
				Source: source(path, tf.line("discoveryTests", i))}, selected, func(r *testsuite.Result) { in.discoveryCase(ctx, r, dir, c) }))
		}
		for i, c := range tf.action {
			add(in.judge(ctx, f.Key+"/action/"+c.Action+"/"+c.InputPath, &testsuite.Case{Name: c.Action + "/" + c.InputPath,
				Source: source(path, tf.line("actionTests", i))}, selected, func(r *testsuite.Result) { in.actionCase(ctx, r, dir, c) }))
		}
	}
	return results
}

// TestOptions select and report the cases RunTests runs.
type TestOptions struct {
	Selected *regexp.Regexp          // the names of the cases to run; nil for all
	Strict   bool                    // fail a test file holding a key Argo CD would ignore
	Each     func(*testsuite.Result) // called with each result as it is judged; may be nil
}

// judge runs one case when selected, timing it and turning a panic into
// a failure.
func (in *Interpreter) judge(ctx context.Context, name string, c *testsuite.Case, selected *regexp.Regexp, run func(*testsuite.Result)) (r *testsuite.Result) {
	r = &testsuite.Result{Name: name, Case: c, Status: testsuite.Skip}
	if selected != nil && !selected.MatchString(name) {
		return r
	}
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			r.Failures = append(r.Failures, fmt.Sprintf("panic: %v", p))
		}
		r.Duration = time.Since(start)
		r.Status = testsuite.Pass
		if len(r.Failures) > 0 || len(r.Differences) > 0 {
			r.Status = testsuite.Fail
		}
	}()
	run(r)
	return r
}

func fail(r *testsuite.Result, format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

func (in *Interpreter) healthCase(ctx context.Context, r *testsuite.Result, dir string, c healthCase) {
	obj, err := readObject(dir, c.InputPath)
	if err != nil {
		fail(r, "reading the input: %v", err)
		return
	}
	h, err := in.Health(ctx, obj)
	r.Err = err
	if err != nil {
		fail(r, "health check failed: %v", err)
		return
	}
	r.Results = map[string]any{"healthStatus": h}
	if h.Status != c.HealthStatus.Status {
		r.Differences = append(r.Differences, compare.Difference{Path: "healthStatus.status", Kind: compare.Changed, Expected: string(c.HealthStatus.Status), Actual: string(h.Status)})
	}
	if h.Message != c.HealthStatus.Message {
		r.Differences = append(r.Differences, compare.Difference{Path: "healthStatus.message", Kind: compare.Changed, Expected: c.HealthStatus.Message, Actual: h.Message})
	}
}

// discoveryCase checks that every action discovered equals the expected
// entry of its name in all five fields; expected entries not discovered
// are not checked (as on Argo CD).
func (in *Interpreter) discoveryCase(ctx context.Context, r *testsuite.Result, dir string, c discoveryCase) {
	obj, err := readObject(dir, c.InputPath)
	if err != nil {
		fail(r, "reading the input: %v", err)
		return
	}
	actions, err := in.Discover(ctx, obj)
	r.Err = err
	if err != nil {
		fail(r, "discovery failed: %v", err)
		return
	}
	r.Results = map[string]any{"result": actions}
	for _, got := range actions {
		i := indexOf(c.Result, func(a Action) bool { return a.Name == got.Name })
		if i < 0 {
			r.Differences = append(r.Differences, compare.Difference{Path: fmt.Sprintf("result[%q]", got.Name), Kind: compare.Unexpected, Actual: got})
			continue
		}
		if want := c.Result[i]; !reflect.DeepEqual(want, got) {
			r.Differences = append(r.Differences, compare.Difference{Path: fmt.Sprintf("result[%d]", i), Kind: compare.Changed, Expected: want, Actual: got})
		}
	}
}

func indexOf[T any](s []T, f func(T) bool) int {
	for i, v := range s {
		if f(v) {
			return i
		}
	}
	return -1
}

func (in *Interpreter) actionCase(ctx context.Context, r *testsuite.Result, dir string, c actionCase) {
	obj, err := readObject(dir, c.InputPath)
	if err != nil {
		fail(r, "reading the input: %v", err)
		return
	}
	res, err := in.RunAction(ctx, obj, c.Action, c.Parameters)
	r.Err = err
	if c.ExpectedErrorMessage != "" {
		switch {
		case err == nil:
			fail(r, "the action succeeded; expected the error %q", c.ExpectedErrorMessage)
		case ErrorMessage(err) != c.ExpectedErrorMessage:
			r.Differences = append(r.Differences, compare.Difference{Path: "expectedErrorMessage", Kind: compare.Changed, Expected: c.ExpectedErrorMessage, Actual: ErrorMessage(err)})
		}
		return
	}
	if err != nil {
		fail(r, "action failed: %v", err)
		return
	}
	r.Results = map[string]any{"result": res}
	expected, err := readJSONValue(dir, c.ExpectedOutputPath)
	if err != nil {
		fail(r, "reading the expected output: %v", err)
		return
	}
	if list, ok := expected.([]any); ok {
		in.compareList(r, obj, res, list)
		return
	}
	want, ok := expected.(map[string]any)
	if !ok || len(res.Resources) == 0 {
		fail(r, "expected one object, the action returned %d resources", len(res.Resources))
		return
	}
	r.Differences = append(r.Differences, compareObject("", want, res.Resources[0].Object.Object)...)
}

// compareList matches each resource the action returned with the
// expected one of its apiVersion, kind and name (a created Job or
// Workflow: whose name starts with the source's, taking that name) and
// compares them; a patch must target the source object.
func (in *Interpreter) compareList(r *testsuite.Result, src *unstructured.Unstructured, res *ActionResult, list []any) {
	var expected []*unstructured.Unstructured
	for i, item := range list {
		m, _ := item.(map[string]any)
		obj, ok := m["unstructuredObj"].(map[string]any)
		if !ok {
			fail(r, "expected output item %d has no unstructuredObj", i)
			return
		}
		expected = append(expected, &unstructured.Unstructured{Object: obj})
	}
	for _, got := range res.Resources {
		o := got.Object
		if got.Operation == OperationPatch && (o.GetKind() != src.GetKind() || o.GetName() != src.GetName() || o.GetAPIVersion() != src.GetAPIVersion()) {
			fail(r, "the action patches %s %s, not the source object %s %s", o.GetKind(), o.GetName(), src.GetKind(), src.GetName())
			continue
		}
		same := func(e *unstructured.Unstructured) bool {
			return e.GetAPIVersion() == o.GetAPIVersion() && e.GetKind() == o.GetKind() &&
				(e.GetNamespace() == "" || o.GetNamespace() == "" || e.GetNamespace() == o.GetNamespace())
		}
		i := indexOf(expected, func(e *unstructured.Unstructured) bool { return same(e) && e.GetName() == o.GetName() })
		if i < 0 && got.Operation == OperationCreate && createsFromTemplate(src, o) {
			i = indexOf(expected, func(e *unstructured.Unstructured) bool {
				return same(e) && strings.HasPrefix(e.GetName(), src.GetName())
			})
			if i >= 0 {
				o = o.DeepCopy()
				o.SetName(expected[i].GetName())
			}
		}
		path := fmt.Sprintf("%s[%s/%s]", got.Operation, o.GetKind(), o.GetName())
		if i < 0 {
			r.Differences = append(r.Differences, compare.Difference{Path: path, Kind: compare.Unexpected, Actual: o.Object})
			continue
		}
		r.Differences = append(r.Differences, compareObject(path, expected[i].Object, o.Object)...)
	}
}

// createsFromTemplate reports whether obj is what Argo CD's tests let
// take a generated name: a Job from a CronJob, a Workflow from a
// CronWorkflow or WorkflowTemplate.
func createsFromTemplate(src, obj *unstructured.Unstructured) bool {
	switch obj.GetKind() {
	case "Job":
		return src.GetKind() == "CronJob"
	case "Workflow":
		return src.GetKind() == "CronWorkflow" || src.GetKind() == "WorkflowTemplate"
	}
	return false
}

// compareObject compares an expected object with a result after Argo
// CD's normalization: creationTimestamp dropped on both sides, the
// namespace and empty annotations from the expected side, clock fields
// pinned.
func compareObject(path string, expected, actual map[string]any) []compare.Difference {
	e := (&unstructured.Unstructured{Object: expected}).DeepCopy()
	a := (&unstructured.Unstructured{Object: actual}).DeepCopy()
	unstructured.RemoveNestedField(e.Object, "metadata", "creationTimestamp")
	unstructured.RemoveNestedField(a.Object, "metadata", "creationTimestamp")
	unstructured.RemoveNestedField(e.Object, "metadata", "namespace")
	if ann, ok, _ := unstructured.NestedMap(e.Object, "metadata", "annotations"); ok && len(ann) == 0 {
		unstructured.RemoveNestedField(e.Object, "metadata", "annotations")
	}
	pin(e.Object, a.Object)
	return subsetDiff(path, e.Object, a.Object)
}

// ErrorMessage is the text Argo CD shows of a script's error: what the
// script raised, without luainterp's script name and line.
func ErrorMessage(err error) string {
	var se *interpreter.ScriptError
	if errors.As(err, &se) && se.Err != nil {
		return se.Err.Error()
	}
	return err.Error()
}
