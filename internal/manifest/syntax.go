package manifest

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// SyntaxError is a YAML syntax error, located at the line the parser
// failed on: the *Error of a document that does not parse holds one.
type SyntaxError struct {
	Problem string // the parser's words, with a note when a tab indents the line
	Line    int    // the line in the file, from 1; 0 when unknown
	Text    string // that line's text
	Column  int    // where on it the problem is, from 1; 0 when unknown
}

func (e *SyntaxError) Error() string { return "invalid YAML: " + e.Problem }

// Detail renders the line with a caret under the problem:
//
//	19 | 	function GetDependencies(obj)
//	   | ^
func (e *SyntaxError) Detail() string {
	if e.Line == 0 {
		return ""
	}
	detail := fmt.Sprintf("%6d | %s", e.Line, e.Text)
	if e.Column > 0 && e.Column <= len(e.Text)+1 {
		detail += fmt.Sprintf("\n%6s | %s^", "", BlankedOut(e.Text[:e.Column-1]))
	}
	return detail
}

// BlankedOut replaces each character of s but tabs by a space, so that a
// caret after it lines up under the character that follows s.
func BlankedOut(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return r
		}
		return ' '
	}, s)
}

// maxSearchedLines bounds the documents whose error line is searched for:
// the search parses a growing prefix of the document once per line.
const maxSearchedLines = 5000

// problemLine returns the line of data (from 1) at which the YAML parser
// first fails with problem: the shortest prefix of whole lines, from line
// from on, that fails so. libyaml's messages name the line of the
// construct being parsed (the mapping a bad key is in, fourteen lines
// up), not the line of the problem. It returns 0 when no prefix does.
func problemLine(data []byte, from int, problem string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > maxSearchedLines {
		return 0
	}
	for k := max(from, 1); k <= len(lines); k++ {
		var n yaml.Node
		err := yaml.Unmarshal(bytes.Join(lines[:k], nil), &n)
		if err != nil && strings.HasSuffix(err.Error(), problem) {
			return k
		}
	}
	return 0
}

// syntaxError builds the SyntaxError of a document for the parser's
// problem, reported on the document's line reported (from 1).
func (d Document) syntaxError(problem string, reported int) *SyntaxError {
	line := reported
	if found := problemLine(d.Data, reported, problem); found > 0 {
		line = found
	}
	e := &SyntaxError{Problem: problem}
	lines := strings.Split(string(d.Data), "\n")
	if line < 1 || line > len(lines) {
		return e
	}
	e.Line, e.Text = d.Line+line-1, strings.TrimRight(lines[line-1], "\r")
	indent := e.Text[:len(e.Text)-len(strings.TrimLeft(e.Text, " \t"))]
	switch tab := strings.IndexByte(indent, '\t'); {
	case tab >= 0:
		e.Column = tab + 1
		if !strings.Contains(problem, "tab") {
			e.Problem += " (this line is indented with a tab; YAML indents with spaces only)"
		}
	default:
		e.Column = len(indent) + 1
	}
	return e
}
