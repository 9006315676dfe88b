package scaffold

import (
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/template"
)

//go:embed customization.yaml.tmpl
var customizationText string

// luaName matches the field names Lua can write after a dot.
var luaName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var customizationTemplate = template.Must(template.New("customization").
	Funcs(template.FuncMap{"lua": luaField}).Parse(customizationText))

// Customization returns the ResourceInterpreterCustomization of a target,
// as YAML with a comment on every key; name is its metadata.name.
func Customization(t Target, name string) ([]byte, error) {
	f := detect(t.Schema)
	var b strings.Builder
	err := customizationTemplate.Execute(&b, map[string]any{
		"Name":        name,
		"APIVersion":  t.GVK.GroupVersion().String(),
		"Kind":        t.GVK.Kind,
		"Replicas":    f.replicas,
		"PodTemplate": f.podTemplate,
	})
	if err != nil {
		return nil, fmt.Errorf("writing the customization of %s: %w", t.GVK.Kind, err)
	}
	return []byte(b.String()), nil
}

// luaField returns the Lua expression of the field at path in obj, nil
// when an object on the way is missing: ((obj.spec or {}).template).
func luaField(path []string) string {
	expr := "obj"
	for i, name := range path {
		if i > 0 {
			expr = "(" + expr + " or {})"
		}
		if luaName.MatchString(name) {
			expr += "." + name
		} else {
			expr += "[" + strconv.Quote(name) + "]"
		}
	}
	return expr
}
