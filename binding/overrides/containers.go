package overrides

import (
	"fmt"
	"strings"

	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// containersPath is where each kind with a pod template keeps its regular
// containers. Other kinds are left alone by the image, command and args
// overriders (unless an image predicate points elsewhere).
var containersPath = map[string][]string{
	"Pod":         {"spec", "containers"},
	"ReplicaSet":  {"spec", "template", "spec", "containers"},
	"Deployment":  {"spec", "template", "spec", "containers"},
	"DaemonSet":   {"spec", "template", "spec", "containers"},
	"StatefulSet": {"spec", "template", "spec", "containers"},
	"Job":         {"spec", "template", "spec", "containers"},
}

// container is one entry of a containers list.
type container struct {
	index  int
	fields map[string]any
}

// containers returns the regular containers of obj, nil for a kind without
// a known pod template or an object without containers. A containers list
// that is not a list of objects is an error.
func containers(obj map[string]any, kind string) ([]container, string, error) {
	path, ok := containersPath[kind]
	if !ok {
		return nil, "", nil
	}
	where := strings.Join(path, ".")
	var cur any = obj
	for _, field := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			if cur == nil {
				return nil, where, nil
			}
			return nil, where, fmt.Errorf("%s: %s is not an object", where, jsonvalue.Describe(cur))
		}
		cur = m[field]
	}
	if cur == nil {
		return nil, where, nil
	}
	list, ok := cur.([]any)
	if !ok {
		return nil, where, fmt.Errorf("%s: want a list, got %s", where, jsonvalue.Describe(cur))
	}
	out := make([]container, len(list))
	for i, c := range list {
		fields, ok := c.(map[string]any)
		if !ok {
			return nil, where, fmt.Errorf("%s[%d]: want an object, got %s", where, i, jsonvalue.Describe(c))
		}
		out[i] = container{index: i, fields: fields}
	}
	return out, where, nil
}

// stringField reads an optional string field of a container.
func (c container) stringField(where, field string) (string, error) {
	v, ok := c.fields[field]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s[%d].%s: want a string, got %s", where, c.index, field, jsonvalue.Describe(v))
	}
	return s, nil
}

// stringList reads an optional list of strings of a container; present
// reports whether the field is there and not null.
func (c container) stringList(where, field string) (list []string, present bool, err error) {
	v, ok := c.fields[field]
	if !ok || v == nil {
		return nil, false, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, false, fmt.Errorf("%s[%d].%s: want a list, got %s", where, c.index, field, jsonvalue.Describe(v))
	}
	list = make([]string, len(items))
	for i, item := range items {
		s, ok := item.(string)
		if !ok {
			return nil, false, fmt.Errorf("%s[%d].%s[%d]: want a string, got %s", where, c.index, field, i, jsonvalue.Describe(item))
		}
		list[i] = s
	}
	return list, true, nil
}
