package customization

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/luainterp/luainterp/internal/jsonvalue"
	"github.com/luainterp/luainterp/internal/manifest"
)

// resolve follows document wrappers and aliases to the node that holds a value.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) > 0:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		case n.Kind == yaml.DocumentNode:
			return nil
		default:
			return n
		}
	}
	return nil
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// describe names a node's type as messages name JSON types.
func describe(n *yaml.Node) string {
	if n == nil {
		return jsonvalue.Null
	}
	switch n.Kind {
	case yaml.MappingNode:
		return jsonvalue.Object
	case yaml.SequenceNode:
		return jsonvalue.List
	}
	switch n.Tag {
	case "!!str":
		return jsonvalue.String
	case "!!int", "!!float":
		return jsonvalue.Number
	case "!!bool":
		return jsonvalue.Boolean
	case "!!null":
		return jsonvalue.Null
	}
	return n.Tag
}

// lookup returns the value of key in mapping n, nil when absent.
func lookup(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// lookupString returns the string value of key in mapping n, "" when it is absent or not a string.
func lookupString(n *yaml.Node, key string) string {
	v := resolve(lookup(n, key))
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		return ""
	}
	return v.Value
}

func (d *decoder) errorAt(pos Position, line int, field, key string, err error) {
	d.set.errs = append(d.set.errs, &Error{Position: pos, Line: line, Field: field, Key: key, Err: err})
}

func (d *decoder) warn(pos Position, msg string) {
	d.set.Warnings = append(d.set.Warnings, Warning{Position: pos, Message: msg})
}

// mapping returns n resolved when it is a mapping, and reports it otherwise.
// A nil n returns nil without a report: the caller decides whether absence is wrong.
func (d *decoder) mapping(pos Position, n *yaml.Node, path, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	if v := resolve(n); v != nil && v.Kind == yaml.MappingNode {
		return v
	}
	d.errorAt(pos, n.Line, path, key, fmt.Errorf("want an object, got %s", describe(resolve(n))))
	return nil
}

// str returns the string n holds; "" when n is nil or null, reporting any other type.
func (d *decoder) str(pos Position, n *yaml.Node, path, key string) string {
	v := resolve(n)
	if v == nil || isNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		d.errorAt(pos, n.Line, path, key, fmt.Errorf("want a string, got %s", describe(v)))
		return ""
	}
	return v.Value
}

// fieldMap is the fields of a mapping by name.
type fieldMap map[string]field

// field is one key of a mapping and its value.
type field struct{ key, value *yaml.Node }

// value returns the value of field name, nil when absent.
func (m fieldMap) value(name string) *yaml.Node { return m[name].value }

// fields returns the fields of mapping n by name, reporting keys used
// twice and keys not in known. path is n's field path; key is the
// customization key errors belong to ("" for the document), except under
// spec.customizations, where an unknown key is its own.
func (d *decoder) fields(pos Position, n *yaml.Node, path, key string, known []string) fieldMap {
	fields := make(fieldMap, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		fieldPath := joinPath(path, name)
		errKey := key
		if path == "spec.customizations" {
			errKey = name
		}
		switch {
		case k.Kind != yaml.ScalarNode:
			d.errorAt(pos, k.Line, path, key, fmt.Errorf("want string keys, got %s", describe(k)))
		case fields[name].key != nil:
			d.errorAt(pos, k.Line, fieldPath, errKey, fmt.Errorf("duplicate key (first on line %d)", fields[name].key.Line))
		case !slices.Contains(known, name):
			d.errorAt(pos, k.Line, fieldPath, errKey, unknownField(name, known))
		default:
			fields[name] = field{k, v}
		}
	}
	return fields
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// unknownField says a field is unknown, suggesting the known name closest to it.
func unknownField(name string, known []string) error {
	if best := manifest.Closest(name, known); best != "" {
		return fmt.Errorf("unknown field, did you mean %s?", strconv.Quote(best))
	}
	return errors.New("unknown field, want one of " + strings.Join(known, ", "))
}
