package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// File is the contents of one file.
type File struct {
	Name string // the path, cleaned; StdinName for standard input
	Data []byte
}

// Reader reads the files that paths stand for.
type Reader struct {
	// Stdin is read for the path "-", once; nil means standard input is
	// not offered.
	Stdin io.Reader
	// Client fetches the paths that are http:// or https:// URLs; nil
	// means a client with a 30-second timeout.
	Client    *http.Client
	stdinRead bool
}

// Read returns the files of every path, in order: a file, a directory
// (every *.yaml, *.yml and *.json file below it, in lexical order, hidden
// entries skipped), an http:// or https:// URL (its body) or "-" for
// r.Stdin. A file is read once however often
// the paths name it. The files that could be read are returned even when
// others could not; the error then joins one *Error per path or file
// that failed.
func (r *Reader) Read(paths ...string) ([]File, error) {
	var (
		files []File
		errs  []error
		seen  = map[string]bool{}
	)
	for _, path := range paths {
		names, err := expand(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			f, err := r.read(name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			files = append(files, f)
		}
	}
	return files, errors.Join(errs...)
}

// Documents returns the documents of every file the paths stand for; see
// Read and Split.
func (r *Reader) Documents(paths ...string) ([]Document, error) {
	files, err := r.Read(paths...)
	var docs []Document
	for _, f := range files {
		docs = append(docs, Split(f)...)
	}
	return docs, err
}

// Objects returns the objects of every document of the files the paths
// stand for; see Read and Document.Objects. The objects that could be
// decoded are returned even when others could not; the error then joins
// one *Error per problem.
func (r *Reader) Objects(paths ...string) ([]Object, error) {
	docs, readErr := r.Documents(paths...)
	objs, err := Objects(docs)
	return objs, errors.Join(readErr, err)
}

// expand returns the names of the files a path stands for.
func expand(path string) ([]string, *Error) {
	if path == Stdin || IsURL(path) {
		return []string{path}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	if !info.IsDir() {
		return []string{filepath.Clean(path)}, nil
	}
	var names []string
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p != path && strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return filepath.SkipDir
			}
		case !e.IsDir() && IsManifest(p):
			names = append(names, filepath.Clean(p))
		}
		return nil
	})
	if err != nil {
		return nil, pathError(path, err)
	}
	if len(names) == 0 {
		return nil, &Error{Source: Source{File: path}, Err: ErrNoManifests}
	}
	return names, nil
}

// ErrNoManifests is the error of a directory that holds no manifest file.
var ErrNoManifests = errors.New("no *.yaml, *.yml or *.json file in directory")

// IsManifest reports whether a file's name says it holds manifests: it
// ends in .yaml, .yml or .json, in any case.
func IsManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func (r *Reader) read(name string) (File, *Error) {
	if IsURL(name) {
		return r.fetch(name)
	}
	if name != Stdin {
		data, err := os.ReadFile(name)
		if err != nil {
			return File{}, pathError(name, err)
		}
		return File{Name: name, Data: data}, nil
	}
	fail := func(err error) (File, *Error) { return File{}, &Error{Source: Source{File: StdinName}, Err: err} }
	switch {
	case r.Stdin == nil:
		return fail(errors.New("standard input is not available"))
	case r.stdinRead:
		return fail(errors.New("standard input is already read"))
	}
	r.stdinRead = true
	data, err := io.ReadAll(r.Stdin)
	if err != nil {
		return fail(fmt.Errorf("read: %w", err))
	}
	return File{Name: StdinName, Data: data}, nil
}

// pathError names the file of an *fs.PathError once: as the Error's file,
// not again in its message.
func pathError(path string, err error) *Error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		path, err = pe.Path, pe.Err
	}
	return &Error{Source: Source{File: path}, Err: err}
}
