package testsuite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
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

// Found is a suite folder found by Find or FindFS.
type Found struct {
	Name string // the folder relative to the tree searched, or as given
	Dir  string // the folder as messages show it
	// FS and Path say where the suite is read from: folder Path of FS.
	// Without FS, it is read from the folder Dir of the file system.
	FS   fs.FS
	Path string
}

// files returns the file system the suite is in and its folder there.
func (f Found) files() (fs.FS, string) {
	if f.FS == nil {
		return os.DirFS(f.Dir), "."
	}
	return f.FS, f.Path
}

// Find returns the suite folders at or below the folder root of the file
// system, in lexical order. A root that holds no suite is an error.
func Find(root string) ([]Found, error) {
	found, err := FindFS(os.DirFS(root), filepath.Clean(root))
	for i := range found {
		found[i].FS, found[i].Path = nil, ""
	}
	return found, err
}

// FindFS returns the suite folders of fsys, in lexical order; root is the
// name fsys goes by in messages (a suite's Dir is root/<its path>). A
// tree that holds no suite is an error.
func FindFS(fsys fs.FS, root string) ([]Found, error) {
	var found []Found
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !e.IsDir():
			return nil
		case p != "." && strings.HasPrefix(e.Name(), "."):
			return fs.SkipDir
		case !isSuite(fsys, p):
			return nil
		}
		f := Found{Name: p, Dir: filepath.Join(root, filepath.FromSlash(p)), FS: fsys, Path: p}
		if p == "." {
			f.Name = filepath.ToSlash(root)
		}
		found = append(found, f)
		return fs.SkipDir // a suite's testdata is not searched for more suites
	})
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, filepath.FromSlash(pathErr.Path)), pathErr.Err)
	case err == nil && len(found) == 0:
		return nil, fmt.Errorf("%s: no suite (a folder with %s and %s/)", root, CustomizationsFile, TestdataDir)
	}
	return found, err
}

func isSuite(fsys fs.FS, dir string) bool {
	info, err := fs.Stat(fsys, path.Join(dir, CustomizationsFile))
	return err == nil && !info.IsDir()
}

// Load reads the suite f: its customizations (checked against the
// folder's place in a <group>/<version>/<Kind> tree, see CheckPath), its
// test cases, and the interpreter layer builds from the customizations.
// The error reports every problem found, each naming its file and
// document.
func Load(f Found, layer LayerFunc) (*Suite, error) {
	s := &Suite{Name: f.Name, Dir: f.Dir}
	fsys, dir := f.files()
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
		if err == nil {
			var cases []*Case
			cases, err = Parse(shown, data)
			s.Cases = append(s.Cases, cases...)
		}
		errs = append(errs, err)
	}

	if err := errors.Join(errs...); err != nil {
		return s, err
	}
	s.Interpreter, err = layer(s.Customizations)
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
