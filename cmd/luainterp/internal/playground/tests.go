package playground

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/scaffold"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/report"
)

// TestRequest is the body of /api/test.
type TestRequest struct {
	Customization string `json:"customization"`
	Tests         string `json:"tests"`
}

// TestReport is the answer of /api/test.
type TestReport struct {
	Cases  []CaseResult `json:"cases"`
	Passed int          `json:"passed"`
	Failed int          `json:"failed"`
	// Coverage is how often each executable line of the customization's
	// scripts ran, by its line in the customization.
	Coverage []LineHits `json:"coverage"`
	// Error is why no case could run: the customization does not load.
	Error *Error `json:"error,omitempty"`
}

// CaseResult is the verdict on one test case.
type CaseResult struct {
	Name      string   `json:"name"`
	Operation string   `json:"operation,omitempty"`
	Line      int      `json:"line,omitempty"` // where the case starts in the tests' text
	Passed    bool     `json:"passed"`
	Failures  []string `json:"failures,omitempty"`
	// Differences are the paths where the results differ, as YAML.
	Differences string  `json:"differences,omitempty"`
	Error       *Error  `json:"error,omitempty"`
	Printed     string  `json:"printed,omitempty"`
	DurationMs  float64 `json:"durationMs"`
}

// LineHits is how often one line ran.
type LineHits struct {
	Line int `json:"line"`
	Hits int `json:"hits"`
}

// suiteName names the playground's suite in case names.
const suiteName = "playground"

func (s *Server) test(r *http.Request, in *TestRequest) (*TestReport, error) {
	out := &TestReport{Cases: []CaseResult{}, Coverage: []LineHits{}}
	set, err := parseCustomization(in.Customization)
	if err != nil {
		out.Error = newError(InputCustomization, err)
		return out, nil
	}
	cov := luavm.NewCoverage()
	layer, err := s.suiteLayer(cov)(set)
	if err != nil {
		out.Error = newError(InputCustomization, err)
		return out, nil
	}
	cases := testsuite.ParseAll(InputTests, []byte(in.Tests))
	suite := &testsuite.Suite{Name: suiteName, Customizations: set, Cases: cases, Interpreter: layer}
	results := suite.Run(r.Context(), nil, nil)
	for _, res := range results {
		out.Cases = append(out.Cases, caseResult(res))
		if res.Status == testsuite.Pass {
			out.Passed++
		} else {
			out.Failed++
		}
	}
	out.Coverage = fileHits(report.Coverage(suiteName, set, cov, results))
	return out, nil
}

func caseResult(res *testsuite.Result) CaseResult {
	c := CaseResult{
		Name: strings.TrimPrefix(res.Name, suiteName+"/"), Line: res.Case.Source.Line,
		Passed: res.Status == testsuite.Pass, Failures: res.Failures,
		Printed: res.Output, DurationMs: float64(res.Duration.Microseconds()) / 1000,
	}
	if res.Case.Operation.Valid() {
		c.Operation = res.Case.Operation.String()
	}
	if len(res.Differences) > 0 {
		c.Differences = toYAML(res.Differences)
	}
	switch {
	case res.Case.Err != nil:
		c.Error = newError(InputTests, res.Case.Err)
	case res.Err != nil && !res.Case.ExpectError:
		c.Error = newError(InputCustomization, res.Err)
	}
	return c
}

// fileHits maps the scripts' hits to customization lines, in line order.
func fileHits(scripts []*report.ScriptCoverage) []LineHits {
	hits := map[int]int{}
	for _, sc := range scripts {
		if sc.Line == 0 {
			continue
		}
		for luaLine, n := range sc.Hits {
			hits[sc.Line+luaLine-1] += n
		}
	}
	out := make([]LineHits, 0, len(hits))
	for line, n := range hits {
		out = append(out, LineHits{Line: line, Hits: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// testCase answers /api/testcase: the current answer of the operation as
// a test case in `luainterp test`'s format.
func (s *Server) testCase(r *http.Request, in *RunRequest) (*testCaseAnswer, error) {
	op, err := parseOperation(in.Operation)
	if err != nil {
		return nil, err
	}
	d := s.decode(in)
	a := s.answer(r.Context(), d, op)
	if a.Error != nil {
		return nil, badRequest{errors.New("the operation fails, so there is no answer to save: " + a.Error.Message)}
	}
	if a.Layer == "" {
		return nil, badRequest{errors.New("no layer answers " + op.String() + " for the object's kind")}
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = strings.ToLower(op.String())
	}
	req, _ := d.request(op)
	data, err := scaffold.CaseOf(name, req, a.Results).YAML()
	if err != nil {
		return nil, fmt.Errorf("writing the case: %w", err)
	}
	return &testCaseAnswer{YAML: string(data)}, nil
}

// testCaseAnswer is the answer of /api/testcase.
type testCaseAnswer struct {
	YAML string `json:"yaml"`
}
