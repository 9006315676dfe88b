package report_test

import (
	"os"
	"time"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
	"github.com/luainterp/luainterp/testsuite/report"
)

func ExampleText() {
	c := &testsuite.Case{
		Name:      "degraded is unhealthy",
		Operation: interpreter.InterpretHealth,
		Source:    testsuite.Source{File: "widget/testdata/health.yaml", Document: 2, Line: 9},
	}
	r := &testsuite.Result{
		Name:        "widget/InterpretHealth/degraded is unhealthy",
		Case:        c,
		Status:      testsuite.Fail,
		Differences: []compare.Difference{{Path: "healthy", Kind: compare.Changed, Expected: false, Actual: true}},
		Output:      "phase: Degraded\n",
		Duration:    3 * time.Millisecond,
	}
	text := report.NewText(os.Stdout)
	text.Result(r)
	text.Summary((&report.Report{Suites: []*report.Suite{{Name: "widget", Results: []*testsuite.Result{r}}}}).Counts())
	// Output:
	// --- FAIL: widget/InterpretHealth/degraded is unhealthy (0.00s)
	//     widget/testdata/health.yaml:9: document 2
	//     diff (-expected +actual):
	//         healthy:
	//         - false
	//         + true
	//     print output:
	//         phase: Degraded
	// 0 passed, 1 failed
}
