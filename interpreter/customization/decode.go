package customization

import (
	"errors"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// The fields a ResourceInterpreterCustomization may hold, level by level.
var (
	documentFields = []string{"apiVersion", "kind", "metadata", "spec"}
	metadataFields = []string{"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
		"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
		"labels", "annotations", "ownerReferences", "finalizers", "managedFields"}
	specFields   = []string{"target", "customizations"}
	targetFields = []string{"apiVersion", "kind"}
	ruleFields   = []string{"luaScript"}
	keys         = customizationKeys()
)

func customizationKeys() []string {
	var keys []string
	for _, op := range interpreter.Operations() {
		keys = append(keys, op.CustomizationKey())
	}
	return keys
}

// decoder turns the YAML (or JSON) documents of files into customizations,
// collecting every problem into its Set instead of stopping at the first.
type decoder struct {
	set *Set
}

// file decodes every document of one file.
func (d *decoder) file(f manifest.File) {
	for _, doc := range manifest.Split(f) {
		pos := Position{File: doc.File, Line: doc.Line, Document: doc.Document}
		var root yaml.Node
		if err := yaml.Unmarshal(doc.Data, &root); err != nil {
			e := doc.YAMLError(err)
			d.errorAt(pos, e.Line, "", "", e.Err)
			continue
		}
		shiftLines(&root, doc.Line-1)
		d.document(pos, &root)
	}
}

// shiftLines moves the lines of a document's nodes by the lines of the
// file before it.
func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// document decodes one document: a customization, a List of them, or
// another kind of manifest, which is skipped with a warning.
func (d *decoder) document(pos Position, root *yaml.Node) {
	n := resolve(root)
	if n == nil || isNull(n) {
		return // a null document
	}
	pos.Line = n.Line
	if n.Kind != yaml.MappingNode {
		d.errorAt(pos, n.Line, "", "", fmt.Errorf("want an object, got %s", describe(n)))
		return
	}
	apiVersion, kind := lookupString(n, "apiVersion"), lookupString(n, "kind")
	switch items := lookup(n, "items"); {
	case kind == Kind:
		d.customization(pos, n)
	case pos.Item == 0 && manifest.IsList(kind, items != nil):
		if isNull(items) {
			return
		}
		if seq := resolve(items); seq.Kind != yaml.SequenceNode {
			d.errorAt(pos, items.Line, "items", "", fmt.Errorf("want a list, got %s", describe(seq)))
			return
		}
		for i, item := range resolve(items).Content {
			itemPos := pos
			itemPos.Item = i + 1
			d.document(itemPos, item)
		}
	default:
		d.warn(pos, manifest.Skipped(apiVersion, kind, Kind))
	}
}

// customization decodes a document of kind ResourceInterpreterCustomization.
func (d *decoder) customization(pos Position, n *yaml.Node) {
	if meta := resolve(lookup(n, "metadata")); meta != nil && meta.Kind == yaml.MappingNode {
		pos.Name = lookupString(meta, "name") // for every error, even those found before metadata
	}
	top := d.fields(pos, n, "", "", documentFields)
	c := &Customization{Position: pos, scripts: map[interpreter.Operation]*Script{}}
	d.metadata(pos, c, n, top["metadata"])
	defer func() { d.set.Customizations = append(d.set.Customizations, c) }()

	switch f := top["apiVersion"]; {
	case f.key == nil:
		d.errorAt(pos, n.Line, "apiVersion", "", fmt.Errorf("missing, want %s", APIVersion))
	case d.str(pos, f.value, "apiVersion", "") != APIVersion:
		d.errorAt(pos, f.key.Line, "apiVersion", "", fmt.Errorf("want %s, got %q", APIVersion, f.value.Value))
	}
	specField := top["spec"]
	if specField.key == nil {
		d.errorAt(pos, n.Line, "spec", "", errors.New("missing"))
		return
	}
	spec := d.mapping(pos, specField.value, "spec", "")
	if spec == nil {
		return
	}
	sf := d.fields(pos, spec, "spec", "", specFields)
	c.Target = d.target(pos, specField.key, sf["target"])
	d.rules(pos, c, specField.key, sf["customizations"])
}

// metadata decodes metadata, setting c's name.
func (d *decoder) metadata(pos Position, c *Customization, doc *yaml.Node, f field) {
	if f.key == nil {
		d.errorAt(pos, doc.Line, "metadata.name", "", errors.New("missing"))
		return
	}
	meta := d.mapping(pos, f.value, "metadata", "")
	if meta == nil {
		return
	}
	md := d.fields(pos, meta, "metadata", "", metadataFields)
	name := md["name"]
	c.Name = d.str(pos, name.value, "metadata.name", "")
	if c.Name == "" {
		d.errorAt(pos, f.key.Line, "metadata.name", "", errors.New("missing"))
		return
	}
	if msgs := validation.IsDNS1123Subdomain(c.Name); len(msgs) > 0 {
		d.errorAt(pos, name.key.Line, "metadata.name", "", errors.New(msgs[0]))
	}
}

// target decodes spec.target; spec is the key of spec, for positions.
func (d *decoder) target(pos Position, spec *yaml.Node, f field) schema.GroupVersionKind {
	if f.key == nil {
		d.errorAt(pos, spec.Line, "spec.target", "", errors.New("missing"))
		return schema.GroupVersionKind{}
	}
	n := d.mapping(pos, f.value, "spec.target", "")
	if n == nil {
		return schema.GroupVersionKind{}
	}
	tf := d.fields(pos, n, "spec.target", "", targetFields)
	apiVersion := d.str(pos, tf.value("apiVersion"), "spec.target.apiVersion", "")
	kind := d.str(pos, tf.value("kind"), "spec.target.kind", "")
	if apiVersion == "" {
		d.errorAt(pos, f.key.Line, "spec.target.apiVersion", "", errors.New("missing"))
	}
	if kind == "" {
		d.errorAt(pos, f.key.Line, "spec.target.kind", "", errors.New("missing"))
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	valid := err == nil && gv.Version != "" && gv.String() == apiVersion // "apps/" parses, but is no version
	if apiVersion != "" && !valid {
		d.errorAt(pos, tf["apiVersion"].key.Line, "spec.target.apiVersion", "", fmt.Errorf("invalid: %q", apiVersion))
	}
	if kind == "" || !valid {
		return schema.GroupVersionKind{}
	}
	return gv.WithKind(kind)
}

// rules decodes spec.customizations: one {luaScript} per operation key.
func (d *decoder) rules(pos Position, c *Customization, spec *yaml.Node, f field) {
	if f.key == nil {
		d.errorAt(pos, spec.Line, "spec.customizations", "", errors.New("missing"))
		return
	}
	n := d.mapping(pos, f.value, "spec.customizations", "")
	if n == nil {
		return
	}
	before := len(d.set.errs)
	rules := d.fields(pos, n, "spec.customizations", "", keys)
	for _, op := range interpreter.Operations() {
		key := op.CustomizationKey()
		rf, path := rules[key], "spec.customizations."+key
		if rf.key == nil || isNull(rf.value) {
			continue // null means unset, as in Karmada
		}
		rule := d.mapping(pos, rf.value, path, key)
		if rule == nil {
			continue
		}
		script := d.fields(pos, rule, path, key, ruleFields).value("luaScript")
		source := d.str(pos, script, path+".luaScript", key)
		switch {
		case script == nil:
			d.errorAt(pos, rf.key.Line, path+".luaScript", key, errors.New("missing"))
		case strings.TrimSpace(source) == "":
			d.errorAt(pos, script.Line, path+".luaScript", key, errors.New("empty"))
		default:
			c.scripts[op] = &Script{Name: c.Name + "/" + key, Operation: op, Source: source, Line: scriptLine(script)}
		}
	}
	if len(c.Operations()) == 0 && len(d.set.errs) == before {
		d.warn(pos, "spec.customizations defines no operation")
	}
}

// scriptLine returns the file line of a script's first line, when script
// lines map to file lines: in a literal block (|, |-) the text starts on
// the line after the indicator; a one-line string sits on its own line.
func scriptLine(n *yaml.Node) int {
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		return n.Line + 1
	case !strings.Contains(n.Value, "\n"):
		return n.Line
	}
	return 0
}
