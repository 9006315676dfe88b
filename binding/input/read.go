package input

import "github.com/luainterp/luainterp/internal/manifest"

// Source is where a document was read: its file, the line it starts on,
// its number in the file and, for the items of a List, the item's number.
type Source = manifest.Source

// Document is one object read from a file: an object of a document, or
// an item of a List.
type Document = manifest.Object

// Reader reads paths, "-" standing for its Stdin (read once); its Objects
// method returns the Documents of every path.
type Reader = manifest.Reader

// Parse reads the documents of one file's content; name is the file's
// name in errors.
func Parse(name string, data []byte) ([]Document, error) {
	return manifest.Parse(name, data)
}
