package crdschema

import (
	"slices"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/manifest"
)

// Item stands for any item of a list in a field path given to HasField.
const Item = "[]"

// HasField reports whether an object of kind gvk can hold the field path
// (keys from the root, Item for a list's item: "spec", "containers",
// Item, "name"). When it cannot, it returns the path up to the first key
// the schema lacks and the closest key the schema has there ("" when none
// is close). A path below a field whose schema keeps unknown fields, or
// is a map, always exists; so does anything under metadata, which the API
// server checks as ObjectMeta. A kind without a schema has every field.
func (s *Schemas) HasField(gvk schema.GroupVersionKind, path []string) (ok bool, missing []string, closest string) {
	v, errs := s.lookup(gvk)
	if v == nil || len(errs) > 0 {
		return true, nil, ""
	}
	node := v.structural
	for i, key := range path {
		if i == 0 && (key == "metadata" || key == "apiVersion" || key == "kind") {
			return true, nil, ""
		}
		if node.XPreserveUnknownFields || node.XEmbeddedResource && (key == "metadata" || key == "apiVersion" || key == "kind") {
			return true, nil, ""
		}
		switch {
		case key == Item:
			if node.Items == nil {
				return true, nil, "" // not known to be a list: another check's business
			}
			node = node.Items
		case node.Properties != nil:
			child, found := node.Properties[key]
			if !found {
				return false, path[:i+1], manifest.Closest(key, keys(node.Properties))
			}
			node = &child
		case node.AdditionalProperties != nil && node.AdditionalProperties.Structural != nil:
			node = node.AdditionalProperties.Structural
		default:
			return true, nil, ""
		}
	}
	return true, nil, ""
}

func keys(m map[string]structuralschema.Structural) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PathString renders a field path as a script writes it: "spec.workers[].name".
func PathString(path []string) string {
	return strings.ReplaceAll(strings.Join(path, "."), "."+Item, Item)
}
