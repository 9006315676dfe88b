package testsuite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
)

// The names that make a folder a suite.
const (
	CustomizationsFile = "customizations.yaml"
	TestdataDir        = "testdata"
)

// CoreGroupDir is the folder name that stands for the core API group
// ("" in apiVersion v1) in a <group>/<version>/<Kind> tree.
const CoreGroupDir = "core"

// Suite is a folder holding customizations.yaml and a testdata/ folder of
// test case files.
type Suite struct {
	// Name is how the suite is shown: its folder relative to the tree it
	// was found in, or its folder as given.
	Name string
	Dir  string
	// Customizations are those of customizations.yaml.
	Customizations *customization.Set
	// Cases are those of testdata/*.yaml, file by file in lexical order.
	Cases []*Case
	// Interpreter answers the cases: the customizations alone, built by
	// the LayerFunc given to Load.
	Interpreter interpreter.Interpreter
}

// LayerFunc turns a suite's customizations into the interpreter its cases
// run against, compile-checking every script first.
type LayerFunc func(*customization.Set) (interpreter.Interpreter, error)

// Found is a suite folder found by Find.
type Found struct {
	Name string // the folder relative to the tree searched, or as given
	Dir  string
}

// Find returns the suite folders at or below root, in lexical order. A
// root that holds no suite is an error.
func Find(root string) ([]Found, error) {
	var found []Found
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !e.IsDir():
			return nil
		case p != root && strings.HasPrefix(e.Name(), "."):
			return filepath.SkipDir
		case !isSuite(p):
			return nil
		}
		name, _ := filepath.Rel(root, p)
		if name == "." {
			name = filepath.Clean(root)
		}
		found = append(found, Found{Name: filepath.ToSlash(name), Dir: p})
		return filepath.SkipDir // a suite's testdata is not searched for more suites
	})
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return nil, fmt.Errorf("%s: %w", pathErr.Path, pathErr.Err)
	case err == nil && len(found) == 0:
		return nil, fmt.Errorf("%s: no suite (a folder with %s and %s/)", root, CustomizationsFile, TestdataDir)
	}
	return found, err
}

func isSuite(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, CustomizationsFile))
	return err == nil && !info.IsDir()
}

// Load reads the suite in f.Dir: its customizations (checked against the
// folder's place in a <group>/<version>/<Kind> tree, see CheckPath), its
// test cases, and the interpreter layer builds from the customizations.
// The error reports every problem found, each naming its file and
// document.
func Load(f Found, layer LayerFunc) (*Suite, error) {
	s := &Suite{Name: f.Name, Dir: f.Dir}
	var errs []error
	set, err := customization.Load(filepath.Join(f.Dir, CustomizationsFile))
	s.Customizations = set
	if err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, CheckPath(f.Dir, set))
	}

	files, err := filepath.Glob(filepath.Join(f.Dir, TestdataDir, "*.yaml"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("%s: no test case files (*.yaml)", filepath.Join(f.Dir, TestdataDir))
	}
	errs = append(errs, err)
	for _, file := range files {
		cases, err := ReadFile(file)
		s.Cases = append(s.Cases, cases...)
		errs = append(errs, err)
	}

	if err := errors.Join(errs...); err != nil {
		return s, err
	}
	s.Interpreter, err = layer(set)
	return s, err
}

// version matches the version folder of a <group>/<version>/<Kind> tree.
var version = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// CheckPath checks that a suite folder laid out as <group>/<version>/<Kind>
// (a folder whose parent's name is a Kubernetes version such as v1 or
// v1alpha1) holds customizations targeting that group, version and kind;
// the core group's folder is named CoreGroupDir. It returns nil for a
// folder laid out otherwise.
func CheckPath(dir string, set *customization.Set) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	kindDir := filepath.Base(abs)
	versionDir := filepath.Base(filepath.Dir(abs))
	groupDir := filepath.Base(filepath.Dir(filepath.Dir(abs)))
	if !version.MatchString(versionDir) {
		return nil
	}
	group := groupDir
	if group == CoreGroupDir {
		group = ""
	}
	var errs []error
	for _, c := range set.Customizations {
		var differ []string
		for _, part := range []struct{ name, target, path string }{
			{"group", c.Target.Group, group},
			{"version", c.Target.Version, versionDir},
			{"kind", c.Target.Kind, kindDir},
		} {
			if part.target != part.path {
				differ = append(differ, fmt.Sprintf("%s %s, the folder %s", part.name, orNone(part.target), orNone(part.path)))
			}
		}
		if differ != nil {
			errs = append(errs, &customization.Error{Position: c.Position, Line: c.Line, Field: "spec.target",
				Err: fmt.Errorf("does not agree with the folder %s/%s/%s: the target has %s",
					groupDir, versionDir, kindDir, strings.Join(differ, "; "))})
		}
	}
	return errors.Join(errs...)
}

func orNone(s string) string {
	if s == "" {
		return `"" (the core group, folder ` + CoreGroupDir + ")"
	}
	return s
}

// defines reports whether the suite's customizations answer c's operation
// for c's object.
func (s *Suite) defines(c *Case) bool {
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
		var r *Result
		switch {
		case selected != nil && !selected.MatchString(name):
			r = &Result{Case: c, Status: Skip}
		case !s.defines(c):
			r = &Result{Case: c, Status: Fail, Failures: []string{fmt.Sprintf("%s defines no %s (%s) for %s",
				CustomizationsFile, c.Operation.CustomizationKey(), c.Operation, c.kind())}}
		default:
			r = Run(ctx, s.Interpreter, c)
		}
		r.Name = name
		results = append(results, r)
		if each != nil {
			each(r)
		}
	}
	return results
}
