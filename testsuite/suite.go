package testsuite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/luainterp/luainterp/internal/crdschema"
	"github.com/luainterp/luainterp/internal/layout"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
)

// The names that make a folder a suite.
const (
	CustomizationsFile = layout.CustomizationsFile
	TestdataDir        = layout.TestdataDir
)

// CoreGroupDir is the folder name that stands for the core API group
// ("" in apiVersion v1) in a <group>/<version>/<Kind> tree.
const CoreGroupDir = layout.CoreGroupDir

// Suite is a folder holding customizations.yaml and a testdata/ folder of
// test case files.
type Suite struct {
	// Name is how the suite is shown: its folder relative to the tree it
	// was found in, or its folder as given.
	Name string
	Dir  string
	// Customizations are those of customizations.yaml.
	Customizations *customization.Set
	// Cases are those of testdata/*.yaml, file by file in lexical order,
	// with a case holding Err for each document or file that could not be
	// read.
	Cases []*Case
	// Interpreter answers the cases: the customizations alone, built by
	// the LayerFunc given to Load.
	Interpreter interpreter.Interpreter
	// Schemas, when not nil, are the CRDs a case's input objects, status
	// items and results must validate against, as the API server would
	// take them (for the kinds they have a CRD for).
	Schemas *crdschema.Schemas
}

// LayerFunc turns a suite's customizations into the interpreter its cases
// run against, compile-checking every script first.
type LayerFunc func(*customization.Set) (interpreter.Interpreter, error)

// Load reads the suite f: its customizations (checked against the
// folder's place in a <group>/<version>/<Kind> tree, see CheckPath), its
// test cases, and the interpreter layer builds from the customizations.
// The error reports every problem found, each naming its file and
// document, except those of test case files: a document or file that
// cannot be read becomes a case holding the error, which fails alone.
func Load(f Found, layer LayerFunc, opts ...Option) (*Suite, error) {
	s := &Suite{Name: f.Name, Dir: f.Dir}
	fsys, dir := f.Files()
	read := func(name string) (string, []byte, error) {
		shown := filepath.Join(f.Dir, filepath.FromSlash(name))
		data, err := fs.ReadFile(fsys, path.Join(dir, name))
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = fmt.Errorf("%s: %w", shown, pathErr.Err)
		}
		return shown, data, err
	}

	var errs []error
	shown, data, err := read(CustomizationsFile)
	if err == nil {
		s.Customizations, err = customization.Parse(shown, data)
	}
	if err == nil {
		err = CheckPath(f.Dir, s.Customizations)
	}
	errs = append(errs, err)

	// The pattern is valid, so Glob cannot fail.
	files, _ := fs.Glob(fsys, path.Join(dir, TestdataDir, "*.yaml"))
	if len(files) == 0 {
		errs = append(errs, fmt.Errorf("%s: no test case files (*.yaml)", filepath.Join(f.Dir, TestdataDir)))
	}
	for _, file := range files {
		shown, data, err := read(path.Join(TestdataDir, path.Base(file)))
		if err != nil {
			s.Cases = append(s.Cases, &Case{Source: Source{File: shown}, Err: err})
			continue
		}
		s.Cases = append(s.Cases, ParseAll(shown, data, opts...)...)
	}
	slices.SortStableFunc(s.Cases, func(a, b *Case) int {
		return cmp.Or(cmp.Compare(a.Source.File, b.Source.File), cmp.Compare(a.Source.Document, b.Source.Document))
	})

	if err := errors.Join(errs...); err != nil {
		return s, err
	}
	s.Interpreter, err = layer(s.Customizations)
	return s, err
}

// ParseAll is Parse for a runner that reports every document of a file:
// each document that cannot be read becomes a case holding its errors
// (Case.Err), which fails alone, after the cases that could be read.
func ParseAll(file string, data []byte, opts ...Option) []*Case {
	cases, err := Parse(file, data, opts...)
	return append(cases, unreadCases(err, cases)...)
}

// unreadCases returns a case for each document the error of Parse names,
// holding the document's errors, but for the documents Parse returned a
// case for (one Strict refused, which holds its errors itself).
func unreadCases(err error, read []*Case) []*Case {
	var cases []*Case
	for _, e := range manifest.Errors(err) {
		if slices.ContainsFunc(read, func(c *Case) bool { return c.Source.Document == e.Document }) {
			continue
		}
		if n := len(cases); n > 0 && cases[n-1].Source.Document == e.Document {
			cases[n-1].Err = errors.Join(cases[n-1].Err, e)
			continue
		}
		cases = append(cases, &Case{Name: e.Name, Source: e.Source, Err: e})
	}
	return cases
}

// unreadable names a test case file, or a document of one, that could not
// be read: "testdata/cases.yaml", "testdata/cases.yaml document 3".
func unreadable(dir string, src Source) string {
	name := src.File
	if rel, err := filepath.Rel(dir, src.File); err == nil {
		name = filepath.ToSlash(rel)
	}
	if src.Document > 0 {
		name += " document " + strconv.Itoa(src.Document)
	}
	return name
}

// defines reports whether the suite's customizations answer c's operation
// for c's object.
func (s *Suite) defines(c *Case) bool {
	if c.Err != nil {
		return true
	}
	req, err := c.Request()
	return err != nil || s.Interpreter.HookEnabled(req.Object.GroupVersionKind(), c.Operation)
}

// Run runs the suite's cases whose full name (see Result.Name) selected
// matches, or all of them when selected is nil; the others come back
// skipped. A case whose operation the customizations do not define for
// its object's kind fails without running. each, when not nil, is called
// with every result as it comes.
func (s *Suite) Run(ctx context.Context, selected *regexp.Regexp, each func(*Result)) []*Result {
	results := make([]*Result, 0, len(s.Cases))
	for _, c := range s.Cases {
		name := s.Name + "/" + c.Operation.String() + "/" + c.Name
		if c.Err != nil && !c.Operation.Valid() {
			name = s.Name + "/" + unreadable(s.Dir, c.Source)
		}
		var r *Result
		switch {
		case selected != nil && !selected.MatchString(name):
			r = &Result{Case: c, Status: Skip}
		case !s.defines(c):
			r = &Result{Case: c, Status: Fail, Failures: []string{fmt.Sprintf("%s defines no %s (%s) for %s",
				CustomizationsFile, c.Operation.CustomizationKey(), c.Operation, c.kind())}}
		default:
			r = Run(ctx, s.Interpreter, c)
			if s.Schemas != nil {
				r.checkSchema(s.Schemas)
			}
		}
		r.Name = name
		results = append(results, r)
		if each != nil {
			each(r)
		}
	}
	return results
}
