package manifest

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// Object is one Kubernetes object of a document.
type Object struct {
	Source // the document's; Item is set for the items of a List
	Object map[string]any
}

// Parse returns the objects of one file's contents; name stands for the
// file in Sources. See Split and Document.Objects.
func Parse(name string, data []byte) ([]Object, error) {
	return Objects(Split(File{Name: name, Data: data}))
}

// Objects returns the objects of every document, going on past documents
// that cannot be decoded; the error then joins one *Error per problem.
func Objects(docs []Document) ([]Object, error) {
	var (
		objs []Object
		errs []error
	)
	for _, doc := range docs {
		o, err := doc.Objects()
		objs = append(objs, o...)
		errs = append(errs, err)
	}
	return objs, errors.Join(errs...)
}

// Objects decodes the document: no object when it is null, the items of a
// List (a kind ending in "List" with an items field), or the object it is.
// Integers are int64, other numbers float64.
func (d Document) Objects() ([]Object, error) {
	js, err := d.JSON()
	if err != nil {
		return nil, err
	}
	var v any
	if err := utiljson.Unmarshal(js, &v); err != nil {
		return nil, &Error{Source: d.Source, Err: err}
	}
	if v == nil {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &Error{Source: d.Source, Err: fmt.Errorf("want an object, got %s", jsonvalue.Describe(v))}
	}
	kind, _ := obj["kind"].(string)
	items, isList := obj["items"]
	if !IsList(kind, isList) {
		return []Object{{Source: d.Source, Object: obj}}, nil
	}
	if items == nil {
		return nil, nil
	}
	list, ok := items.([]any)
	if !ok {
		return nil, &Error{Source: d.Source, Err: fmt.Errorf("items: want a list, got %s", jsonvalue.Describe(items))}
	}
	var (
		objs []Object
		errs []error
	)
	for i, item := range list {
		src := d.Source
		src.Item = i + 1
		if m, ok := item.(map[string]any); ok {
			objs = append(objs, Object{Source: src, Object: m})
		} else {
			errs = append(errs, &Error{Source: src, Err: fmt.Errorf("want an object, got %s", jsonvalue.Describe(item))})
		}
	}
	return objs, errors.Join(errs...)
}

// IsList reports whether an object of kind, with or without an items
// field, is a List whose items stand for it.
func IsList(kind string, hasItems bool) bool {
	return hasItems && strings.HasSuffix(kind, "List")
}

// JSON returns the document as JSON. YAML is read strictly: a key given
// twice in a mapping is an error.
func (d Document) JSON() ([]byte, error) {
	if d.json {
		return d.Data, nil
	}
	js, err := yaml.YAMLToJSONStrict(d.Data)
	if err != nil {
		return nil, d.YAMLError(err)
	}
	return js, nil
}

var (
	yamlLine    = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlProblem = regexp.MustCompile(`^\s*line (\d+): (.*)$`)
)

// YAMLError locates an error of a YAML parser given the document's text:
// at the line of the file the parser failed on, as "invalid YAML: ...". A
// syntax error is a *SyntaxError, which shows that line.
func (d Document) YAMLError(err error) *Error {
	at := func(line string) int {
		n, _ := strconv.Atoi(line)
		return d.Line + n - 1
	}
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		se := d.syntaxError(m[2], n)
		return &Error{Source: d.At(cmp.Or(se.Line, at(m[1]))), Err: se}
	}
	if rest, ok := strings.CutPrefix(msg, "yaml: unmarshal errors:\n"); ok {
		// One problem per line: "  line 3: key "a" already set in map".
		var line int
		var problems []string
		for _, p := range strings.Split(rest, "\n") {
			m := yamlProblem.FindStringSubmatch(p)
			switch {
			case m == nil:
				problems = append(problems, strings.TrimSpace(p))
			case line == 0:
				line = at(m[1])
				problems = append(problems, m[2])
			default:
				problems = append(problems, fmt.Sprintf("line %d: %s", at(m[1]), m[2]))
			}
		}
		return &Error{Source: d.At(max(line, d.Line)), Err: errors.New("invalid YAML: " + strings.Join(problems, "; "))}
	}
	return &Error{Source: d.Source, Err: errors.New("invalid YAML: " + strings.TrimPrefix(msg, "yaml: "))}
}

// Skipped is the warning for an object skipped for its kind by a reader
// that wants only objects of kind want.
func Skipped(apiVersion, kind, want string) string {
	if apiVersion == "" && kind == "" {
		return "skipped: not a Kubernetes object (no apiVersion and kind)"
	}
	return fmt.Sprintf("skipped %s %s: not a %s", apiVersion, kind, want)
}

// located is a Document or an Object.
type located interface{ source() Source }

// One returns the only document or object of a file, or an error saying
// there is none or naming the second.
func One[T located](items []T) (T, error) {
	var zero T
	switch len(items) {
	case 1:
		return items[0], nil
	case 0:
		return zero, errors.New("no document found")
	}
	return zero, fmt.Errorf("want one document, got %d (the second is %s)", len(items), items[1].source())
}
