package report

import "github.com/luainterp/luainterp/testsuite"

// Report is the outcome of a run of suites.
type Report struct {
	Suites []*Suite
	// Coverage is the line coverage of the suites' scripts, when recorded.
	Coverage []*ScriptCoverage
}

// Suite is the outcome of one suite: its results, or why it could not be
// loaded.
type Suite struct {
	Name    string
	Dir     string
	Err     error
	Results []*testsuite.Result
}

// Counts are the number of cases by verdict, and of suites not loaded.
type Counts struct {
	Passed, Failed, Skipped, NotLoaded int
}

// Counts counts the cases of every suite.
func (r *Report) Counts() Counts {
	var c Counts
	for _, s := range r.Suites {
		if s.Err != nil {
			c.NotLoaded++
		}
		for _, res := range s.Results {
			switch res.Status {
			case testsuite.Pass:
				c.Passed++
			case testsuite.Fail:
				c.Failed++
			case testsuite.Skip:
				c.Skipped++
			}
		}
	}
	return c
}

// OK reports whether every suite loaded and no case failed.
func (c Counts) OK() bool { return c.Failed == 0 && c.NotLoaded == 0 }
