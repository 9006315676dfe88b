package testsuite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Found is a suite folder found by Find or FindFS.
type Found struct {
	Name string // the folder relative to the tree searched, or as given
	Dir  string // the folder as messages show it
	// FS and Path say where the suite is read from: folder Path of FS.
	// Without FS, it is read from the folder Dir of the file system.
	FS   fs.FS
	Path string
}

// Files returns the file system the suite is in and its folder there.
func (f Found) Files() (fs.FS, string) {
	if f.FS == nil {
		return os.DirFS(f.Dir), "."
	}
	return f.FS, f.Path
}

// Find returns the suite folders at or below the folder root of the file
// system, in lexical order. A root that holds no suite is an error.
//
// A suite laid out as <group>/<version>/<Kind> is named so
// ("ray.io/v1/RayJob") whichever path led to it: the folder itself, its
// group's folder or the tree above. Another suite is named by its path
// below root, or root itself when it is the suite.
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
		if name, ok := layoutName(f.Dir); ok {
			f.Name = name
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

// layoutName returns "<group>/<version>/<Kind>" for a suite folder laid out
// so (see CheckPath), and false for another.
func layoutName(dir string) (string, bool) {
	group, version, kind, err := layoutDirs(dir)
	if err != nil || version == "" {
		return "", false
	}
	return group + "/" + version + "/" + kind, true
}
