package testsuite

import (
	"errors"
	"os"

	"github.com/luainterp/luainterp/internal/manifest"
)

// Source locates a case: its file, the line its document starts on and
// its document number in the file (counting from 1); it renders as
// "cases.yaml:12: document 2".
type Source = manifest.Source

// DocumentError is the error of one document of a test file: its Source,
// the test case's name when it has one, and what is wrong.
type DocumentError = manifest.Error

// Option changes how test cases are read.
type Option func(*options)

type options struct {
	strict bool
}

// Strict makes each field of a test case that Karmada's decoder would not
// read as written (see FieldError) an error of its document, instead of
// a warning of the case.
func Strict() Option { return func(o *options) { o.strict = true } }

func newOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// ReadFile reads the test cases of a YAML file, one per document.
func ReadFile(path string, opts ...Option) ([]*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts...)
}

// Parse reads test cases from YAML documents; file names them in errors.
// Every document is read: the error joins one *DocumentError per bad
// document (or one for the file, when it holds no document), and the
// cases returned are the good ones. Fields are read as Karmada reads
// them: one it does not know is ignored, and named in the case's
// Warnings (or, with Strict, its document's error; the case still comes
// back, holding that error in Err, under its name and operation).
func Parse(file string, data []byte, opts ...Option) ([]*Case, error) {
	o := newOptions(opts)
	var cases []*Case
	var errs []error
	for _, doc := range manifest.Split(manifest.File{Name: file, Data: data}) {
		c, err := decodeCase(doc, o)
		if err != nil {
			errs = append(errs, err)
		}
		if c != nil {
			cases = append(cases, c.withDocument(doc))
		}
	}
	if len(cases) == 0 && len(errs) == 0 {
		errs = append(errs, &DocumentError{Source: Source{File: file}, Err: errors.New("no test cases")})
	}
	return cases, errors.Join(errs...)
}
