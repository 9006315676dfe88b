package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/internal/manifest"
)

// Error is the failure to decode one document.
type Error struct {
	Source Source
	Object string // "Kind namespace/name", when known
	Err    error
}

func (e *Error) Error() string {
	where := e.Source.String()
	if e.Object != "" {
		where += " (" + e.Object + ")"
	}
	return where + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Template returns the one resource template among docs. It must have an
// apiVersion, a kind and a metadata.name.
func Template(docs []Document) (*unstructured.Unstructured, error) {
	doc, err := single(docs, "template")
	if err != nil {
		return nil, err
	}
	obj := &unstructured.Unstructured{Object: doc.Object}
	for _, f := range []struct{ name, value string }{
		{"apiVersion", obj.GetAPIVersion()}, {"kind", obj.GetKind()}, {"metadata.name", obj.GetName()},
	} {
		if f.value == "" {
			return nil, &Error{Source: doc.Source, Err: fmt.Errorf("template: %s is missing or not a string", f.name)}
		}
	}
	return obj, nil
}

// Binding returns the one ResourceBinding or ClusterResourceBinding among
// docs.
func Binding(docs []Document) (*api.ResourceBinding, error) {
	doc, err := single(docs, "binding")
	if err != nil {
		return nil, err
	}
	var b api.ResourceBinding
	if err := decode(doc, api.BindingAPIVersion, []string{api.KindResourceBinding, api.KindClusterResourceBinding}, &b, false); err != nil {
		return nil, err
	}
	return &b, nil
}

// Clusters returns the Clusters among docs; every document must be one.
func Clusters(docs []Document) ([]api.Cluster, error) {
	clusters := make([]api.Cluster, len(docs))
	seen := map[string]Source{}
	for i, doc := range docs {
		if err := decode(doc, api.ClusterAPIVersion, []string{api.KindCluster}, &clusters[i], false); err != nil {
			return nil, err
		}
		if err := unique(seen, clusters[i].Name, doc); err != nil {
			return nil, err
		}
	}
	return clusters, nil
}

// Policies returns the OverridePolicies and ClusterOverridePolicies among
// docs; every document must be one. Fields unknown to the policy API are
// returned as warnings (Karmada's API server drops them).
func Policies(docs []Document) (policies []api.OverridePolicy, warnings []string, err error) {
	policies = make([]api.OverridePolicy, len(docs))
	seen := map[string]Source{}
	for i, doc := range docs {
		p := &policies[i]
		if err := decode(doc, api.PolicyAPIVersion, []string{api.KindOverridePolicy, api.KindClusterOverridePolicy}, p, false); err != nil {
			return nil, nil, err
		}
		if err := decode(doc, api.PolicyAPIVersion, nil, &api.OverridePolicy{}, true); err != nil {
			warnings = append(warnings, err.Error()+" (ignored)")
		}
		if err := unique(seen, p.Kind+" "+p.Namespace+"/"+p.Name, doc); err != nil {
			return nil, nil, err
		}
	}
	return policies, warnings, nil
}

func single(docs []Document, what string) (Document, error) {
	doc, err := manifest.One(docs)
	if err != nil {
		return doc, fmt.Errorf("read %s: %w", what, err)
	}
	return doc, nil
}

func unique(seen map[string]Source, key string, doc Document) error {
	if first, ok := seen[key]; ok {
		return &Error{Source: doc.Source, Object: describe(doc.Object), Err: fmt.Errorf("duplicate of %s", first)}
	}
	seen[key] = doc.Source
	return nil
}

// decode checks apiVersion and kind (when kinds is set) and decodes doc
// into out; strict rejects unknown fields.
func decode(doc Document, apiVersion string, kinds []string, out any, strict bool) error {
	fail := func(err error) error { return &Error{Source: doc.Source, Object: describe(doc.Object), Err: err} }
	kind, _ := doc.Object["kind"].(string)
	if kinds != nil {
		if !slices.Contains(kinds, kind) {
			return fail(fmt.Errorf("kind %q: want %s", kind, strings.Join(kinds, " or ")))
		}
		if v, _ := doc.Object["apiVersion"].(string); v != apiVersion {
			return fail(fmt.Errorf("apiVersion %q: want %s", v, apiVersion))
		}
	}
	data, err := json.Marshal(doc.Object)
	if err != nil {
		return fail(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(out); err != nil {
		return fail(err)
	}
	return nil
}

// describe names an object as "Kind namespace/name", as far as known.
func describe(obj map[string]any) string {
	u := unstructured.Unstructured{Object: obj}
	name := u.GetName()
	if ns := u.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return strings.TrimSpace(u.GetKind() + " " + name)
}
