package customization

import (
	"io"
	"os"

	"github.com/luainterp/luainterp/internal/manifest"
)

// Stdin is the path that names standard input.
const Stdin = manifest.Stdin

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
	(&decoder{set: set}).file(manifest.File{Name: name, Data: data})
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
	r := &manifest.Reader{Stdin: l.Stdin}
	files, err := r.Read(paths...)
	for _, e := range manifest.Errors(err) {
		set.errs = append(set.errs, fromManifest(e))
	}
	d := &decoder{set: set}
	for _, f := range files {
		d.file(f)
	}
	set.finish()
	return set, set.Err()
}
