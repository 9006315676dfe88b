package testsuite

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/luainterp/luainterp/internal/manifest"
)

// OutputSource returns where the case's expected value at path is written:
// path is a difference's (package compare), under output; the source's
// line is that of the key of path, or of its closest ancestor written in
// the case when the case has no such key (a field the result has and the
// case does not expect). It is the case's Source when the line is unknown.
func (c *Case) OutputSource(path string) Source {
	if c.doc.Data == nil {
		return c.Source
	}
	var root yaml.Node
	if yaml.Unmarshal(c.doc.Data, &root) != nil {
		return c.Source
	}
	for p := "output." + path; ; {
		if line := fieldLine(c.doc, &root, p); line != c.doc.Line {
			return c.Source.At(line)
		}
		i := strings.LastIndexAny(p, ".[")
		if i <= 0 {
			return c.Source
		}
		p = p[:i]
	}
}

// withDocument records the document a case was read from, for OutputSource.
func (c *Case) withDocument(doc manifest.Document) *Case {
	c.doc = doc
	return c
}
