package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// The JUnit XML shapes, as CI systems (Jenkins, GitLab, GitHub actions)
// read them.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Time     string      `xml:"time,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		Skipped   *struct{}     `xml:"skipped,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes the report as JUnit XML: a <testsuite> per suite, a
// <testcase> per case (named operation/name, classed by suite) with its
// <failure> and print output. A suite that could not be loaded holds one
// <testcase> named "load" with an <error>.
func WriteJUnit(w io.Writer, r *Report) error {
	var out junitSuites
	var total time.Duration
	for _, s := range r.Suites {
		js := junitSuite{Name: s.Name}
		var elapsed time.Duration
		if s.Err != nil {
			js.Errors++
			js.Cases = append(js.Cases, junitCase{Name: "load", Classname: s.Name, Time: seconds(0),
				Error: &junitProblem{Message: firstLine(s.Err.Error()), Text: s.Err.Error()}})
		}
		for _, res := range s.Results {
			jc := junitCase{
				Name:      strings.TrimPrefix(res.Name, s.Name+"/"),
				Classname: s.Name,
				File:      res.Case.Source.File,
				Line:      res.Case.Source.Line,
				Time:      seconds(res.Duration),
				SystemOut: res.Output,
			}
			switch res.Status {
			case testsuite.Fail:
				js.Failures++
				jc.Failure = &junitProblem{Message: failureMessage(res), Text: failureText(res)}
			case testsuite.Skip:
				js.Skipped++
				jc.Skipped = &struct{}{}
			}
			elapsed += res.Duration
			js.Cases = append(js.Cases, jc)
		}
		js.Tests = len(js.Cases)
		js.Time = seconds(elapsed)
		total += elapsed
		out.Tests += js.Tests
		out.Failures += js.Failures
		out.Errors += js.Errors
		out.Skipped += js.Skipped
		out.Suites = append(out.Suites, js)
	}
	out.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// failureMessage is the gist of why a case failed, for one line.
func failureMessage(r *testsuite.Result) string {
	if len(r.Failures) > 0 {
		return firstLine(r.Failures[0])
	}
	if len(r.Differences) == 1 {
		return "output differs from the expected at 1 path"
	}
	return fmt.Sprintf("output differs from the expected at %d paths", len(r.Differences))
}

// failureText is why a case failed: its source, its failures and its diff.
func failureText(r *testsuite.Result) string {
	lines := append([]string{r.Case.Source.String()}, r.Failures...)
	if len(r.Differences) > 0 {
		lines = append(lines, "diff (-expected +actual):", strings.TrimSuffix(compare.Format(r.Differences), "\n"))
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
