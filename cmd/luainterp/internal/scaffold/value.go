package scaffold

import (
	"encoding/json"
	"regexp"
	"slices"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// maxDepth bounds how deep required fields are filled in.
const maxDepth = 12

// sampleTime is the sample's date-time.
const sampleTime = "2024-01-01T00:00:00Z"

// required returns a value for s holding its required fields only (nil
// for a nil schema). A required field is never empty: an empty object or
// list would not survive a script (an empty Lua table is no object), so
// each gets one field or item (see full).
func required(s *apiextv1.JSONSchemaProps, depth int) any {
	if s == nil {
		return nil
	}
	v, _ := fill(s, depth, false)
	return v
}

// full returns a value for s that is not empty: an object with at least
// one field, a list with one item. ok is false when it found none that
// validates, and v is then required's.
func full(s *apiextv1.JSONSchemaProps, depth int) (v any, ok bool) {
	return fill(s, depth, true)
}

// fill returns a value for s with its required fields; when nonEmpty, an
// object gets a field and a list an item if it has none. ok reports
// whether the value validates (and, when nonEmpty, is not empty).
func fill(s *apiextv1.JSONSchemaProps, depth int, nonEmpty bool) (any, bool) {
	if v, ok := schemaValue(s); ok && (!nonEmpty || !isEmpty(v)) {
		return v, true
	}
	switch s.Type {
	case "array":
		n := int64(0)
		if s.MinItems != nil {
			n = *s.MinItems
		}
		if nonEmpty {
			n = max(n, 1)
		}
		if n == 0 {
			return []any{}, true
		}
		if s.Items == nil || s.Items.Schema == nil || depth >= maxDepth {
			return []any{}, false
		}
		item, ok := full(s.Items.Schema, depth+1)
		list := make([]any, n)
		for i := range list {
			list[i] = item
		}
		return list, ok
	case "integer", "number":
		return sampleInt(s, 1), true
	case "boolean":
		return false, true
	case "string":
		return sampleString(s)
	}
	if s.Type == "" && s.XIntOrString {
		return int64(1), true
	}
	return fillObject(s, depth, nonEmpty)
}

// fillObject is fill for an object (or a field of no type).
func fillObject(s *apiextv1.JSONSchemaProps, depth int, nonEmpty bool) (any, bool) {
	obj := map[string]any{}
	if depth >= maxDepth {
		return obj, !nonEmpty
	}
	ok := true
	for _, name := range s.Required {
		if p, found := s.Properties[name]; found {
			v, valid := full(&p, depth+1)
			obj[name], ok = v, ok && valid
		}
	}
	if !nonEmpty || len(obj) > 0 {
		return obj, ok
	}
	if _, found := s.Properties["matchLabels"]; found {
		// A label selector: that of the sample's pod template.
		return map[string]any{"matchLabels": map[string]any{"app": "sample"}}, true
	}
	for _, name := range byEase(s) {
		p := s.Properties[name]
		if v, valid := full(&p, depth+1); valid {
			return map[string]any{name: v}, true
		}
	}
	switch {
	case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		v, valid := full(s.AdditionalProperties.Schema, depth+1)
		return map[string]any{"sample": v}, valid
	case len(s.Properties) == 0 && (keepsUnknown(*s) || s.AdditionalProperties != nil && s.AdditionalProperties.Allows):
		return map[string]any{"sample": "sample"}, true
	}
	return obj, false
}

// byEase returns the names of the properties of s, the easiest to fill
// first: those the schema gives a value, then the scalars, then the
// others, each in name order.
func byEase(s *apiextv1.JSONSchemaProps) []string {
	rank := func(name string) int {
		p := s.Properties[name]
		scalar := p.Type == "string" || p.Type == "integer" || p.Type == "number" || p.Type == "boolean"
		_, given := schemaValue(&p)
		switch {
		case scalar && given:
			return 0
		case scalar:
			return 1
		}
		return 2
	}
	names := requiredFirst(*s)
	slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	return names
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// sampleInt returns want, or the bound of s it breaks.
func sampleInt(s *apiextv1.JSONSchemaProps, want int64) int64 {
	if s.Minimum != nil {
		low := int64(*s.Minimum)
		if s.ExclusiveMinimum {
			low++
		}
		want = max(want, low)
	}
	if s.Maximum != nil {
		high := int64(*s.Maximum)
		if s.ExclusiveMaximum {
			high--
		}
		want = min(want, high)
	}
	return want
}

// sampleStrings are the strings a sample string is picked from: the first
// that the schema's format, pattern and lengths allow.
var sampleStrings = []string{
	"sample",
	"Sample",
	"1m",
	"1",
	"v1",
	"1.0.0",
	"https://example.com/sample",
	"oci://registry.example.com/sample",
	"ssh://git@example.com/sample.git",
	"*/5 * * * *",
	"sample.example.com",
	"sample-1",
	"/sample",
	"1Gi",
	sampleTime,
}

// formatStrings are the sample strings of the formats the API server checks.
var formatStrings = map[string]string{
	"date-time": sampleTime,
	"date":      "2024-01-01",
	"duration":  "1m",
	"uri":       "https://example.com/sample",
	"hostname":  "sample.example.com",
	"email":     "sample@example.com",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"cidr":      "192.0.2.0/24",
	"mac":       "02:00:00:00:00:01",
	"uuid":      "00000000-0000-4000-8000-000000000001",
	"byte":      "c2FtcGxl",
}

// sampleString returns a string for s; ok is false when none of the
// candidates validates, and the string is then "sample".
func sampleString(s *apiextv1.JSONSchemaProps) (string, bool) {
	candidates := sampleStrings
	if f, found := formatStrings[s.Format]; found {
		candidates = []string{f}
	}
	for _, c := range candidates {
		if validString(s, c) {
			return c, true
		}
	}
	return "sample", false
}

// validString reports whether v satisfies the enum, pattern and lengths
// of s.
func validString(s *apiextv1.JSONSchemaProps, v string) bool {
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e apiextv1.JSON) bool {
		var ev any
		return json.Unmarshal(e.Raw, &ev) == nil && ev == v
	}) {
		return false
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil || !re.MatchString(v) {
			return false
		}
	}
	n := int64(len([]rune(v)))
	return (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
}

// schemaValue is the value the schema gives: its default, else its
// example, else its first enum value.
func schemaValue(s *apiextv1.JSONSchemaProps) (any, bool) {
	for _, js := range []*apiextv1.JSON{s.Default, s.Example} {
		if js != nil {
			var v any
			if json.Unmarshal(js.Raw, &v) == nil && v != nil {
				return jsonInts(v), true
			}
		}
	}
	if len(s.Enum) > 0 {
		var v any
		if json.Unmarshal(s.Enum[0].Raw, &v) == nil && v != nil {
			return jsonInts(v), true
		}
	}
	return nil, false
}

// jsonInts turns the whole float64s of a decoded JSON value into int64.
func jsonInts(v any) any {
	switch v := v.(type) {
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = jsonInts(e)
		}
	case []any:
		for i, e := range v {
			v[i] = jsonInts(e)
		}
	}
	return v
}

// prune drops the fields of v that s does not declare, as the API server
// does: it keeps those of an object that preserves unknown fields, the
// apiVersion, kind and metadata of an embedded resource, and the entries
// of a map.
func prune(v any, s *apiextv1.JSONSchemaProps) any {
	if s == nil {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		for name, e := range v {
			if p, ok := s.Properties[name]; ok {
				v[name] = prune(e, &p)
				continue
			}
			switch {
			case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
				v[name] = prune(e, s.AdditionalProperties.Schema)
			case keepsUnknown(*s), s.AdditionalProperties != nil && s.AdditionalProperties.Allows,
				s.XEmbeddedResource && (name == "apiVersion" || name == "kind" || name == "metadata"):
			default:
				delete(v, name)
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for i, e := range v {
				v[i] = prune(e, s.Items.Schema)
			}
		}
	}
	return v
}
