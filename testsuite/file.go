package testsuite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// DocumentError is the error of one document of a YAML file.
type DocumentError struct {
	Source
	Name string // the test case's name, when it has one
	Err  error
}

func (e *DocumentError) Error() string {
	where := e.Source.String()
	if e.Name != "" {
		where += " " + strconv.Quote(e.Name)
	}
	return where + ": " + e.Err.Error()
}

func (e *DocumentError) Unwrap() error { return e.Err }

// ReadFile reads the test cases of a YAML file, one per document.
func ReadFile(path string) ([]*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads test cases from YAML documents; file names them in errors.
// Every document is read: the error joins one *DocumentError per bad
// document, and the cases returned are the good ones.
func Parse(file string, data []byte) ([]*Case, error) {
	var cases []*Case
	var errs []error
	for _, doc := range SplitDocuments(data) {
		src := Source{File: file, Document: doc.Number, Line: doc.Line}
		c, err := decodeCase(doc.Text)
		if err != nil {
			name := ""
			if c != nil {
				name = c.Name
			}
			errs = append(errs, &DocumentError{Source: src, Name: name, Err: err})
			continue
		}
		c.Source = src
		cases = append(cases, c)
	}
	if len(cases) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no test cases", file))
	}
	return cases, errors.Join(errs...)
}

// Document is one document of a YAML stream.
type Document struct {
	Number int    // counting from 1, documents with content only
	Line   int    // the line its text starts on, counting from 1
	Text   []byte // without the "---" line
}

// SplitDocuments splits a YAML stream at its "---" lines, leaving out
// documents that hold only blank lines and comments.
func SplitDocuments(data []byte) []Document {
	var docs []Document
	start, startLine, line := 0, 1, 1
	flush := func(end int) {
		text := data[start:end]
		if hasContent(text) {
			docs = append(docs, Document{Number: len(docs) + 1, Line: startLine, Text: text})
		}
	}
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			next = pos + end + 1
		}
		if isSeparator(bytes.TrimRight(data[pos:next], "\r\n")) {
			flush(pos)
			start, startLine = next, line+1
		}
		pos = next
	}
	flush(len(data))
	return docs
}

func isSeparator(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	return ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t')
}

func hasContent(text []byte) bool {
	for line := range bytes.Lines(text) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return true
		}
	}
	return false
}
