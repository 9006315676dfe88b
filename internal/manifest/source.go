package manifest

import (
	"strconv"
	"strings"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// StdinName is how standard input is named in messages and Sources.
const StdinName = "<stdin>"

// Source locates a document, an object or a problem in a file.
type Source struct {
	File     string // the path, cleaned; StdinName for standard input
	Line     int    // the line in the file, from 1; 0 when unknown
	Document int    // the document's number in the file, from 1; 0 for the file as a whole
	Item     int    // the item's number in a List document, from 1; 0 otherwise
}

// String renders the source as messages show it:
// "file:line: document N item M", each part only when known.
func (s Source) String() string {
	var b strings.Builder
	b.WriteString(s.File)
	if s.Line > 0 {
		b.WriteString(":" + strconv.Itoa(s.Line))
	}
	if s.Document > 0 {
		b.WriteString(": document " + strconv.Itoa(s.Document))
		if s.Item > 0 {
			b.WriteString(" item " + strconv.Itoa(s.Item))
		}
	}
	return b.String()
}

// At returns the source with another line.
func (s Source) At(line int) Source {
	s.Line = line
	return s
}

func (s Source) source() Source { return s }

// Error is a problem with a file, or with one of its documents or objects.
type Error struct {
	Source
	Name string // what the document holds, when known (a metadata.name); shown quoted
	Err  error
}

func (e *Error) Error() string {
	where := e.Source.String()
	if e.Name != "" {
		where += " " + strconv.Quote(e.Name)
	}
	return where + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Errors returns the *Error values err holds, itself or joined with
// errors.Join at any depth, in order.
func Errors(err error) []*Error {
	switch err := err.(type) {
	case *Error:
		return []*Error{err}
	case interface{ Unwrap() []error }:
		var all []*Error
		for _, e := range err.Unwrap() {
			all = append(all, Errors(e)...)
		}
		return all
	}
	return nil
}
