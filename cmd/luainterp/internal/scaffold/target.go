package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/manifest"
)

// Target is the kind a scaffold is for, and its schema when known.
type Target struct {
	GVK schema.GroupVersionKind
	// Schema is the kind's openAPIV3Schema; nil when not known, and the
	// sample is then shaped like a Deployment.
	Schema *apiextv1.JSONSchemaProps
	// CRD is the CustomResourceDefinition the schema is from, as JSON,
	// which Write records in the suite; nil when not known.
	CRD []byte
	// CRDName is its metadata.name.
	CRDName string
	// ClusterScoped is whether the kind's objects have no namespace.
	ClusterScoped bool
}

// ErrNotCRD is the error of ReadCRD for a file that holds no
// CustomResourceDefinition.
var ErrNotCRD = errors.New("no apiextensions.k8s.io/v1 CustomResourceDefinition found")

// ReadCRD reads the CustomResourceDefinition of a file (YAML or JSON, or a
// URL; see manifest.Reader) and returns the target for gvk: its schema is
// that of the version gvk names. An empty gvk.Version picks the CRD's
// storage version, an empty gvk.Kind its kind. The group and kind, when
// given, must be the CRD's.
func ReadCRD(r *manifest.Reader, path string, gvk schema.GroupVersionKind) (Target, error) {
	objs, err := r.Objects(path)
	if err != nil {
		return Target{}, err
	}
	for _, obj := range objs {
		if obj.Object["apiVersion"] != "apiextensions.k8s.io/v1" || obj.Object["kind"] != "CustomResourceDefinition" {
			continue
		}
		js, err := json.Marshal(obj.Object)
		if err != nil {
			return Target{}, &manifest.Error{Source: obj.Source, Err: err}
		}
		var crd apiextv1.CustomResourceDefinition
		if err := json.Unmarshal(js, &crd); err != nil {
			return Target{}, &manifest.Error{Source: obj.Source, Err: err}
		}
		t, err := crdTarget(&crd, gvk)
		if err != nil {
			return Target{}, &manifest.Error{Source: obj.Source, Name: crd.Name, Err: err}
		}
		t.CRD, t.CRDName = js, crd.Name
		return t, nil
	}
	name := path
	if path == manifest.Stdin {
		name = manifest.StdinName
	}
	return Target{}, fmt.Errorf("%s: %w", name, ErrNotCRD)
}

func crdTarget(crd *apiextv1.CustomResourceDefinition, gvk schema.GroupVersionKind) (Target, error) {
	s := crd.Spec
	switch {
	case gvk.Group != "" && gvk.Group != s.Group:
		return Target{}, fmt.Errorf("spec.group: the CRD is for group %q, not %q", s.Group, gvk.Group)
	case gvk.Kind != "" && gvk.Kind != s.Names.Kind:
		return Target{}, fmt.Errorf("spec.names.kind: the CRD is for kind %q, not %q", s.Names.Kind, gvk.Kind)
	}
	var names []string
	for _, v := range s.Versions {
		names = append(names, v.Name)
		if v.Name != gvk.Version && (gvk.Version != "" || !v.Storage) {
			continue
		}
		t := Target{GVK: schema.GroupVersionKind{Group: s.Group, Version: v.Name, Kind: s.Names.Kind},
			ClusterScoped: s.Scope == apiextv1.ClusterScoped}
		if v.Schema != nil {
			t.Schema = v.Schema.OpenAPIV3Schema
		}
		return t, nil
	}
	if gvk.Version == "" {
		return Target{}, errors.New("spec.versions: no storage version")
	}
	slices.Sort(names)
	return Target{}, fmt.Errorf("spec.versions: no version %q (the CRD has %s)", gvk.Version, strings.Join(names, ", "))
}
