package customization

import (
	"strconv"
	"strings"

	"github.com/luainterp/luainterp/internal/manifest"
)

// Position locates a document: the file it came from, its line and index
// in the file, and, once known, the name of the customization it holds.
type Position struct {
	File     string // the path, cleaned; "<stdin>" for standard input
	Line     int    // the line the document's object starts on; 0 for the file as a whole
	Document int    // 1-based index of the YAML document in the file; 0 for the file as a whole
	Item     int    // 1-based index in the items of a List document; 0 otherwise
	Name     string // metadata.name, when known
}

// String renders the position as errors and warnings show it:
// `file:3: document 2 "cloneset-hooks"`.
func (p Position) String() string {
	return p.at(p.Line)
}

// at renders the position at a file line (its own line when 0).
func (p Position) at(line int) string {
	if line == 0 {
		line = p.Line
	}
	s := manifest.Source{File: p.File, Line: line, Document: p.Document, Item: p.Item}.String()
	if p.Name != "" {
		s += " " + strconv.Quote(p.Name)
	}
	return s
}

// fromManifest converts a problem found reading a file.
func fromManifest(e *manifest.Error) *Error {
	return &Error{Position: Position{File: e.File, Document: e.Document, Item: e.Item}, Line: e.Line, Err: e.Err}
}

// Error is one problem found in a customization file: where it is (file,
// line, document, customization, field) and what is wrong.
type Error struct {
	Position
	Line  int    // the line in the file; 0 for the line of the Position
	Field string // the field path in the document, e.g. "spec.customizations.replicaResource.luaScript"
	Key   string // the key of spec.customizations the problem belongs to, "" for the document
	Err   error

	script *Script // the script of a *interpreter.ScriptError in Err
}

func (e *Error) Error() string {
	msg := e.at(e.Line)
	if e.Field != "" {
		msg += ": " + e.Field
	}
	return msg + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every problem found while loading or compiling, in file
// order. Load and NewLayer return one when anything is wrong.
type ErrorList []*Error

func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As see every error of the list.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// err returns the list as an error, nil when it is empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Warning is something a user should know that does not stop loading:
// a document skipped for its kind, two customizations defining the same
// operation.
type Warning struct {
	Position
	Message string
}

func (w Warning) String() string { return w.Position.String() + ": " + w.Message }
