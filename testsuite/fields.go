package testsuite

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// FieldProblem is what is wrong with a field of a test case.
type FieldProblem int

// The field problems. Karmada's decoder reads past each of them: it
// ignores an unknown field, matches a field name regardless of case, and
// keeps the last of a repeated field.
const (
	UnknownField FieldProblem = iota + 1
	FieldCase
	DuplicateField
)

// FieldError is a field of a test case that Karmada's decoder does not
// read as written: a warning, or with Strict an error of its document.
type FieldError struct {
	Path    string // where the field is: "ouput", "statusItems[0].apiVersion"
	Problem FieldProblem
	// Known is the field the name stands for (FieldCase) or probably
	// means (UnknownField, when one is close); "" when none is.
	Known string
}

func (e *FieldError) Error() string {
	switch e.Problem {
	case FieldCase:
		return e.Path + ": read as " + strconv.Quote(e.Known) + ", whose case differs"
	case DuplicateField:
		return e.Path + ": duplicate field, the last one is read"
	}
	if e.Known != "" {
		return e.Path + ": unknown field, did you mean " + strconv.Quote(e.Known) + "?"
	}
	return e.Path + ": unknown field"
}

// The fields a test case and a status item may hold.
var (
	caseFields       = jsonFields(reflect.TypeFor[document]())
	statusItemFields = jsonFields(reflect.TypeFor[interpreter.AggregatedStatusItem]())
)

func jsonFields(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// strictProblem matches the messages of sigs.k8s.io/json's strict errors.
var strictProblem = regexp.MustCompile(`^(unknown|duplicate) field "(.*)"$`)

// fieldErrors turns what a strict decode of a document reported into
// FieldErrors, each a *DocumentError at the field's line.
func fieldErrors(doc manifest.Document, name string, data []byte) []error {
	strict, err := kjson.UnmarshalStrict(data, &document{})
	if err != nil || len(strict) == 0 {
		return nil // a document that does not decode is reported as such
	}
	var root yaml.Node
	_ = yaml.Unmarshal(doc.Data, &root) // the document decoded, so it parses
	var errs []error
	for _, s := range strict {
		m := strictProblem.FindStringSubmatch(s.Error())
		if m == nil {
			errs = append(errs, &DocumentError{Source: doc.Source, Name: name, Err: s})
			continue
		}
		fe := &FieldError{Path: m[2], Problem: DuplicateField}
		if m[1] == "unknown" {
			fe.Problem, fe.Known = classify(fe.Path)
		}
		errs = append(errs, &DocumentError{Source: doc.At(fieldLine(doc, &root, fe.Path)), Name: name, Err: fe})
	}
	return errs
}

// classify says whether the unknown field at path stands for a known one
// in another case, else which known field it probably means.
func classify(path string) (FieldProblem, string) {
	known := caseFields
	parent, last := splitPath(path)
	if strings.HasPrefix(parent, "statusItems[") {
		known = statusItemFields
	}
	for _, k := range known {
		if strings.EqualFold(k, last) {
			return FieldCase, k
		}
	}
	return UnknownField, manifest.Closest(last, known)
}

// splitPath cuts a field path before its last field name.
func splitPath(path string) (parent, last string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// pathPart matches one step of a field path: a name, then any [index].
var pathPart = regexp.MustCompile(`^([^.\[]*)((?:\[\d+\])*)$`)

// fieldLine returns the file line of the key at path in a document, or
// the document's line when it cannot be found.
func fieldLine(doc manifest.Document, root *yaml.Node, path string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	line := 0
	for part := range strings.SplitSeq(path, ".") {
		m := pathPart.FindStringSubmatch(part)
		if m == nil || n == nil {
			return doc.Line
		}
		n, line = mappingValue(n, m[1])
		for idx := range strings.SplitSeq(strings.Trim(m[2], "[]"), "][") {
			if idx == "" {
				continue
			}
			i, _ := strconv.Atoi(idx)
			if n == nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return doc.Line
			}
			n = n.Content[i]
		}
	}
	if line == 0 {
		return doc.Line
	}
	return doc.Line + line - 1
}

// mappingValue returns the value of the last key name in a mapping and
// the key's line; nil and 0 when there is none.
func mappingValue(n *yaml.Node, name string) (*yaml.Node, int) {
	if n.Kind != yaml.MappingNode {
		return nil, 0
	}
	var value *yaml.Node
	line := 0
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Value == name {
			value, line = n.Content[i+1], k.Line
		}
	}
	return value, line
}
