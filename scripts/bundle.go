package scripts

import (
	"embed"
	"io/fs"
	"path"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/layout"
)

// FS holds the bundled suites: for every kind, its folder
// <group>/<version>/<Kind>/ with customizations.yaml and testdata/*.yaml.
//
//go:embed */*/*/customizations.yaml */*/*/testdata
var FS embed.FS

// Root is the folder of this package in the repository: the name under
// which files of FS appear in messages, and where `luainterp test` finds
// the bundled suites.
const Root = "scripts"

// bundle is the customizations file of one kind in a tree laid out as
// <group>/<version>/<Kind>/customizations.yaml.
type bundle struct {
	gvk  schema.GroupVersionKind
	file string // the path in the tree
}

// findBundles returns the customizations files of the tree, in path order,
// each with the kind its folder names.
func findBundles(fsys fs.FS) []bundle {
	// The pattern is valid, so Glob cannot fail.
	files, _ := fs.Glob(fsys, path.Join("*", "*", "*", layout.CustomizationsFile))
	bundles := make([]bundle, 0, len(files))
	for _, file := range files {
		parts := strings.Split(file, "/")
		bundles = append(bundles, bundle{gvk: layout.Kind(parts[0], parts[1], parts[2]), file: file})
	}
	return bundles
}
