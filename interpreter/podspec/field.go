package podspec

import (
	"fmt"
	"strconv"

	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// The helpers below read one value of unstructured JSON. A nil value
// (absent or null) is never an error: it reads as the zero value. A value of
// another JSON type is an error saying what was found; the caller prefixes
// the path, so paths are only built when something is wrong.

func asMap(v any) (map[string]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	}
	return nil, typeError("an object", v)
}

func asList(v any) ([]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	}
	return nil, typeError("a list", v)
}

func asString(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	}
	return "", typeError("a string", v)
}

// stringAt reads m[key] as a string.
func stringAt(m map[string]any, key string) (string, error) {
	s, err := asString(m[key])
	if err != nil {
		return "", fieldError(key, err)
	}
	return s, nil
}

// mapAt reads m[key] as an object.
func mapAt(m map[string]any, key string) (map[string]any, error) {
	v, err := asMap(m[key])
	if err != nil {
		return nil, fieldError(key, err)
	}
	return v, nil
}

// listAt reads m[key] as a list.
func listAt(m map[string]any, key string) ([]any, error) {
	v, err := asList(m[key])
	if err != nil {
		return nil, fieldError(key, err)
	}
	return v, nil
}

// nameAt reads m[key].name: the name of an object reference such as
// configMapRef or secretKeyRef.
func nameAt(m map[string]any, key string) (string, error) {
	ref, err := mapAt(m, key)
	if err != nil || ref == nil {
		return "", err
	}
	name, err := stringAt(ref, "name")
	if err != nil {
		return "", fieldError(key, err)
	}
	return name, nil
}

// fieldError prefixes err with a path step: "key" or "key[i]" or
// "key.rest..." when err already carries a path. A nil err stays nil.
func fieldError(step string, err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := err.(*pathError); ok {
		sep := "."
		if pe.path == "" || pe.path[0] == '[' {
			sep = ""
		}
		return &pathError{path: step + sep + pe.path, err: pe.err}
	}
	return &pathError{path: step, err: err}
}

// indexError prefixes err with a list index.
func indexError(i int, err error) error {
	return fieldError("["+strconv.Itoa(i)+"]", err)
}

// pathError is an error at a field path inside the pod spec.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

func typeError(want string, got any) error {
	return fmt.Errorf("expected %s, got %s", want, jsonvalue.Describe(got))
}
