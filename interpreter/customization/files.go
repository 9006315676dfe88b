package customization

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// FileOutcome is what a reload did with one file.
type FileOutcome int

// The outcomes of a file's reload.
const (
	FileLoaded  FileOutcome = iota + 1 // its contents read serve
	FileInvalid                        // its contents (or its path) do not load; its last good version, if any, serves
	FileEmptied                        // its contents are refused with an *EmptiedError; its last good version serves
	FileDeleted                        // it is gone: its customizations no longer serve
)

func (o FileOutcome) String() string {
	switch o {
	case FileLoaded:
		return "loaded"
	case FileInvalid:
		return "invalid"
	case FileEmptied:
		return "emptied"
	case FileDeleted:
		return "deleted"
	}
	return fmt.Sprintf("FileOutcome(%d)", int(o))
}

// FileReload is what one reload did with one file whose contents changed,
// that is gone, or, for FileInvalid, a path that cannot be read.
type FileReload struct {
	File    string
	Outcome FileOutcome
	Err     error // why the contents read do not serve: FileInvalid and FileEmptied
	Serving bool  // a version of the file serves: the contents read, or its last good version
}

// fileState is what a Reloader knows of one file.
type fileState struct {
	data    []byte // the contents last read
	good    *Set   // the version serving; nil when none does
	pending *Set   // the contents last read, loaded but not yet serving (see settle)
	err     error  // why the contents last read do not serve; nil when they do
}

// report returns the outcome of the contents last read.
func (st *fileState) report(file string) FileReload {
	r := FileReload{File: file, Err: st.err, Serving: st.good != nil}
	var emptied *EmptiedError
	switch {
	case st.err == nil:
		r.Outcome = FileLoaded
	case errors.As(st.err, &emptied):
		r.Outcome = FileEmptied
	default:
		r.Outcome = FileInvalid
	}
	return r
}

// fileSet is the state of every file the paths of a Reloader stand for:
// each file loads on its own, so that one that does not keeps its own last
// good version and the others still apply.
type fileSet struct {
	files      map[string]*fileState
	unreadable []error // the paths that could not be read at the last update
}

// update loads the files read whose contents changed, on engine, and
// forgets those gone; readErr is the error of reading them. It returns
// what happened to each file, by name.
func (s *fileSet) update(engine *luavm.Engine, read []manifest.File, readErr error) []FileReload {
	if s.files == nil {
		s.files = map[string]*fileState{}
	}
	var reports []FileReload
	kept := map[string]bool{}
	s.unreadable = nil
	for _, e := range manifest.Errors(readErr) {
		if errors.Is(e, fs.ErrNotExist) || errors.Is(e, manifest.ErrNoManifests) {
			continue // gone: its files are deleted below
		}
		// Cannot be read, for now: whatever of it served goes on serving.
		serving := false
		for name, st := range s.files {
			if within(name, e.File) {
				kept[name] = true
				serving = serving || st.good != nil
			}
		}
		err := fromManifest(e)
		s.unreadable = append(s.unreadable, err)
		reports = append(reports, FileReload{File: e.File, Outcome: FileInvalid, Err: err, Serving: serving})
	}
	for _, f := range read {
		kept[f.Name] = true
		st := s.files[f.Name]
		if st == nil {
			st = &fileState{}
			s.files[f.Name] = st
		} else if bytes.Equal(st.data, f.Data) {
			continue
		}
		st.data, st.pending, st.err = f.Data, nil, nil
		set, err := Parse(f.Name, f.Data)
		if err == nil {
			_, err = NewLayer(engine, set)
		}
		if err == nil {
			err = Emptied(f.Name, st.good, set)
		}
		if err != nil {
			st.err = err
			reports = append(reports, st.report(f.Name))
			continue
		}
		st.pending = set
	}
	for name := range s.files {
		if !kept[name] {
			delete(s.files, name)
			reports = append(reports, FileReload{File: name, Outcome: FileDeleted})
		}
	}
	reports = append(reports, s.settle()...)
	slices.SortStableFunc(reports, func(a, b FileReload) int { return strings.Compare(a.File, b.File) })
	return reports
}

// within reports whether file is path or below it.
func within(file, path string) bool {
	rel, err := filepath.Rel(path, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// settle puts the pending versions in service, in file name order, but for
// one that uses the name of a customization another file serves: as when
// loading several files at once, a name is used once, and the file that
// had it keeps it. A version refused so is tried again at every update,
// and serves once the name is free.
func (s *fileSet) settle() []FileReload {
	names := s.names()
	owner := map[string]*Customization{}
	claim := func(set *Set) {
		for _, c := range set.Customizations {
			if _, taken := owner[c.Name]; !taken {
				owner[c.Name] = c
			}
		}
	}
	for _, name := range names {
		if st := s.files[name]; st.pending == nil && st.good != nil {
			claim(st.good)
		}
	}
	var reports []FileReload
	for _, name := range names {
		st := s.files[name]
		if st.pending == nil {
			continue
		}
		if err := duplicates(owner, st.pending); err != nil {
			changed := st.err == nil || st.err.Error() != err.Error()
			st.err = err
			if st.good != nil {
				claim(st.good)
			}
			if changed {
				reports = append(reports, st.report(name))
			}
			continue
		}
		st.good, st.pending, st.err = st.pending, nil, nil
		claim(st.good)
		reports = append(reports, st.report(name))
	}
	return reports
}

// duplicates reports the customizations of set whose names owner holds.
func duplicates(owner map[string]*Customization, set *Set) error {
	var errs ErrorList
	for _, c := range set.Customizations {
		if first, taken := owner[c.Name]; taken {
			errs = append(errs, &Error{Position: c.Position, Field: "metadata.name",
				Err: fmt.Errorf("duplicate name, already used by %s", first.Position)})
		}
	}
	return errs.err()
}

// names returns the names of the files, in order.
func (s *fileSet) names() []string {
	names := make([]string, 0, len(s.files))
	for name := range s.files {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// serving returns the customizations serving: every file's last good
// version, merged.
func (s *fileSet) serving() *Set {
	var sets []*Set
	for _, name := range s.names() {
		if st := s.files[name]; st.good != nil {
			sets = append(sets, st.good)
		}
	}
	return Merge(sets...)
}

// err returns what does not serve: the paths that could not be read and
// the files whose contents last read are refused, as one error; nil when
// everything read serves.
func (s *fileSet) err() error {
	errs := slices.Clone(s.unreadable)
	for _, name := range s.names() {
		if st := s.files[name]; st.err != nil {
			errs = append(errs, st.err)
		}
	}
	return errors.Join(errs...)
}
