package customization

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// Loader reads customizations from files and directories.
type Loader struct {
	// Stdin is read for the path "-"; nil means standard input is not offered.
	Stdin io.Reader
}

// Load reads the customizations of every path with standard input for "-";
// see Loader.Load.
func Load(paths ...string) (*Set, error) {
	return Loader{Stdin: os.Stdin}.Load(paths...)
}

// Parse decodes the customizations of one file's contents; name stands
// for the file in messages.
func Parse(name string, data []byte) (*Set, error) {
	set := &Set{}
	(&decoder{set: set}).file(name, data)
	set.finish()
	return set, set.Err()
}

// Load reads the customizations of every path: a YAML or JSON file of one
// or more documents, a directory (every *.yaml, *.yml and *.json file
// below it, in lexical order, hidden entries skipped), or "-" for l.Stdin.
// Documents of other kinds are skipped with a warning, so a folder of
// manifests can be given as it is.
//
// The Set holds every customization that could be decoded, even when the
// returned error (an ErrorList, also given by Set.Err) reports problems:
// Check uses it to report each rule on its own.
func (l Loader) Load(paths ...string) (*Set, error) {
	set := &Set{}
	d := &decoder{set: set}
	seen := map[string]bool{}
	for _, path := range paths {
		files, err := l.expand(path)
		if err != nil {
			set.errs = append(set.errs, &Error{Position: Position{File: path}, Err: err})
			continue
		}
		for _, file := range files {
			if seen[file] {
				continue
			}
			seen[file] = true
			data, err := l.read(file)
			if err != nil {
				set.errs = append(set.errs, &Error{Position: Position{File: displayName(file)}, Err: err})
				continue
			}
			d.file(displayName(file), data)
		}
	}
	set.finish()
	return set, set.Err()
}

// expand returns the files a path stands for.
func (l Loader) expand(path string) ([]string, error) {
	if path == Stdin {
		return []string{Stdin}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if !info.IsDir() {
		return []string{filepath.Clean(path)}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p != path && strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return filepath.SkipDir
			}
		case !e.IsDir() && isManifest(p):
			files = append(files, filepath.Clean(p))
		}
		return nil
	})
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(files) == 0 {
		return nil, errors.New("no *.yaml, *.yml or *.json file in directory")
	}
	return files, nil
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func (l Loader) read(file string) ([]byte, error) {
	if file != Stdin {
		data, err := os.ReadFile(file)
		return data, unwrapPathError(err)
	}
	if l.Stdin == nil {
		return nil, errors.New("standard input is not available")
	}
	data, err := io.ReadAll(l.Stdin)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return data, nil
}

func displayName(file string) string {
	if file == Stdin {
		return "<stdin>"
	}
	return file
}

// unwrapPathError drops the operation and path from an *fs.PathError: the
// Error naming the file already shows it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
