package report

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// sample is a run of two suites: one with a passing, a failing and a
// skipped case, and one that could not be loaded.
func sample() *Report {
	source := func(doc, line int) testsuite.Source {
		return testsuite.Source{File: "widget/testdata/health.yaml", Document: doc, Line: line}
	}
	return &Report{Suites: []*Suite{
		{
			Name: "widget", Dir: "suites/widget",
			Results: []*testsuite.Result{
				{
					Name:      "widget/InterpretReplica/counts replicas",
					Case:      &testsuite.Case{Name: "counts replicas", Operation: interpreter.InterpretReplica, Source: source(1, 1)},
					Status:    testsuite.Pass,
					Unchecked: []string{"requires"},
					Duration:  2 * time.Millisecond,
				},
				{
					Name:   "widget/InterpretHealth/degraded is unhealthy",
					Case:   &testsuite.Case{Name: "degraded is unhealthy", Operation: interpreter.InterpretHealth, Source: source(2, 14)},
					Status: testsuite.Fail,
					Differences: []compare.Difference{
						{Path: "healthy", Kind: compare.Changed, Expected: false, Actual: true},
					},
					Output:   "phase: Degraded\nready: 0\n",
					Duration: 20 * time.Millisecond,
				},
				{
					Name:   "widget/InterpretHealth/needs a phase",
					Case:   &testsuite.Case{Name: "needs a phase", Operation: interpreter.InterpretHealth, Source: source(3, 30)},
					Status: testsuite.Skip,
				},
			},
		},
		{
			Name: "broken", Dir: "suites/broken",
			Err: errors.New("suites/broken/customizations.yaml:1: document 1 \"broken\": spec.customizations.retention.luaScript: line 2: syntax error"),
		},
	}}
}

func TestText(t *testing.T) {
	r := sample()
	var out bytes.Buffer
	text := NewText(&out)
	for _, res := range r.Suites[0].Results {
		text.Result(res)
	}
	text.NotLoaded(r.Suites[1].Name, r.Suites[1].Err)
	text.Summary(r.Counts())
	assert.Equal(t, `--- PASS: widget/InterpretReplica/counts replicas (0.00s)
    unchecked: requires
--- FAIL: widget/InterpretHealth/degraded is unhealthy (0.02s)
    widget/testdata/health.yaml:14: document 2
    diff (-expected +actual):
        healthy:
        - false
        + true
    print output:
        phase: Degraded
        ready: 0
--- FAIL: broken (not loaded)
    suites/broken/customizations.yaml:1: document 1 "broken": spec.customizations.retention.luaScript: line 2: syntax error
1 passed, 1 failed, 1 skipped, 1 suite not loaded
`, out.String())
}

func TestSummary(t *testing.T) {
	tests := []struct {
		counts Counts
		want   string
		ok     bool
	}{
		{Counts{Passed: 3}, "3 passed, 0 failed\n", true},
		{Counts{Passed: 1, Failed: 2}, "1 passed, 2 failed\n", false},
		{Counts{Passed: 1, Skipped: 4}, "1 passed, 0 failed, 4 skipped\n", true},
		{Counts{NotLoaded: 2}, "0 passed, 0 failed, 2 suites not loaded\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			var out bytes.Buffer
			NewText(&out).Summary(tt.counts)
			assert.Equal(t, tt.want, out.String())
			assert.Equal(t, tt.ok, tt.counts.OK())
		})
	}
}

func TestWriteJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, WriteJSON(&out, sample()))
	assert.JSONEq(t, `{
  "passed": 1, "failed": 1, "skipped": 1, "notLoaded": 1,
  "suites": [
    {
      "name": "widget", "dir": "suites/widget",
      "cases": [
        {"name": "widget/InterpretReplica/counts replicas", "operation": "InterpretReplica",
         "file": "widget/testdata/health.yaml", "line": 1, "document": 1,
         "status": "pass", "seconds": 0.002, "unchecked": ["requires"]},
        {"name": "widget/InterpretHealth/degraded is unhealthy", "operation": "InterpretHealth",
         "file": "widget/testdata/health.yaml", "line": 14, "document": 2,
         "status": "fail", "seconds": 0.02,
         "differences": [{"path": "healthy", "kind": "changed", "expected": false, "actual": true}],
         "output": "phase: Degraded\nready: 0\n"},
        {"name": "widget/InterpretHealth/needs a phase", "operation": "InterpretHealth",
         "file": "widget/testdata/health.yaml", "line": 30, "document": 3,
         "status": "skip", "seconds": 0}
      ]
    },
    {
      "name": "broken", "dir": "suites/broken",
      "error": "suites/broken/customizations.yaml:1: document 1 \"broken\": spec.customizations.retention.luaScript: line 2: syntax error",
      "cases": []
    }
  ]
}`, out.String())
}

func TestWriteJUnit(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, WriteJUnit(&out, sample()))
	assert.Equal(t, `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1" errors="1" skipped="1" time="0.022">
  <testsuite name="widget" tests="3" failures="1" errors="0" skipped="1" time="0.022">
    <testcase name="InterpretReplica/counts replicas" classname="widget" file="widget/testdata/health.yaml" line="1" time="0.002"></testcase>
    <testcase name="InterpretHealth/degraded is unhealthy" classname="widget" file="widget/testdata/health.yaml" line="14" time="0.020">
      <failure message="output differs from the expected at 1 path">widget/testdata/health.yaml:14: document 2&#xA;diff (-expected +actual):&#xA;healthy:&#xA;- false&#xA;+ true</failure>
      <system-out>phase: Degraded&#xA;ready: 0&#xA;</system-out>
    </testcase>
    <testcase name="InterpretHealth/needs a phase" classname="widget" file="widget/testdata/health.yaml" line="30" time="0.000">
      <skipped></skipped>
    </testcase>
  </testsuite>
  <testsuite name="broken" tests="1" failures="0" errors="1" skipped="0" time="0.000">
    <testcase name="load" classname="broken" time="0.000">
      <error message="suites/broken/customizations.yaml:1: document 1 &#34;broken&#34;: spec.customizations.retention.luaScript: line 2: syntax error">suites/broken/customizations.yaml:1: document 1 &#34;broken&#34;: spec.customizations.retention.luaScript: line 2: syntax error</error>
    </testcase>
  </testsuite>
</testsuites>
`, out.String())
}
