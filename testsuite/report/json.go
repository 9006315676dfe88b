package report

import (
	"encoding/json"
	"io"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// The JSON shapes of a report.
type (
	jsonReport struct {
		Passed    int            `json:"passed"`
		Failed    int            `json:"failed"`
		Skipped   int            `json:"skipped"`
		NotLoaded int            `json:"notLoaded"`
		Suites    []jsonSuite    `json:"suites"`
		Coverage  []jsonCoverage `json:"coverage,omitempty"`
	}
	jsonCoverage struct {
		*ScriptCoverage
		LinesRun int     `json:"linesRun"`
		Lines    int     `json:"lines"`
		Percent  float64 `json:"percent"`
	}
	jsonSuite struct {
		Name  string     `json:"name"`
		Dir   string     `json:"dir"`
		Error string     `json:"error,omitempty"`
		Cases []jsonCase `json:"cases"`
	}
	jsonCase struct {
		Name        string               `json:"name"`
		Operation   string               `json:"operation,omitempty"` // none for a case that could not be read
		File        string               `json:"file"`
		Line        int                  `json:"line"`
		Document    int                  `json:"document"`
		Status      testsuite.Status     `json:"status"`
		Seconds     float64              `json:"seconds"`
		Failures    []string             `json:"failures,omitempty"`
		Differences []compare.Difference `json:"differences,omitempty"`
		Unchecked   []string             `json:"unchecked,omitempty"`
		Error       string               `json:"error,omitempty"`
		Output      string               `json:"output,omitempty"`
	}
)

// WriteJSON writes the report as one JSON object: the counts, and every
// suite with its cases (name, source, status, failures, differences,
// unchecked results, the operation's error and print output).
func WriteJSON(w io.Writer, r *Report) error {
	c := r.Counts()
	out := jsonReport{Passed: c.Passed, Failed: c.Failed, Skipped: c.Skipped, NotLoaded: c.NotLoaded, Suites: []jsonSuite{}}
	for _, s := range r.Suites {
		js := jsonSuite{Name: s.Name, Dir: s.Dir, Cases: []jsonCase{}}
		if s.Err != nil {
			js.Error = s.Err.Error()
		}
		for _, res := range s.Results {
			js.Cases = append(js.Cases, jsonCase{
				Name:        res.Name,
				Operation:   operationName(res.Case.Operation),
				File:        res.Case.Source.File,
				Line:        res.Case.Source.Line,
				Document:    res.Case.Source.Document,
				Status:      res.Status,
				Seconds:     res.Duration.Seconds(),
				Failures:    res.Failures,
				Differences: res.Differences,
				Unchecked:   res.Unchecked,
				Output:      res.Output,
			})
			if res.Err != nil {
				js.Cases[len(js.Cases)-1].Error = res.Err.Error()
			}
		}
		out.Suites = append(out.Suites, js)
	}
	for _, sc := range r.Coverage {
		ran, total := sc.Covered()
		out.Coverage = append(out.Coverage, jsonCoverage{ScriptCoverage: sc, LinesRun: ran, Lines: total, Percent: sc.Percent()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// operationName is the wire name of op, "" for none.
func operationName(op interpreter.Operation) string {
	if !op.Valid() {
		return ""
	}
	return op.String()
}
