package crdschema_test

import (
	"os"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/crdschema"
)

// crds loads the project's CRDs, those the bundled scripts are checked
// against.
func crds(t *testing.T) *crdschema.Schemas {
	t.Helper()
	s, err := loadCRDs()
	require.NoError(t, err)
	return s
}

var loadCRDs = sync.OnceValues(func() (*crdschema.Schemas, error) {
	return crdschema.Load(os.DirFS("../.."), "testdata/crds")
})

// rayCluster is a valid ray.io/v1 RayCluster with a status.
const rayCluster = `
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: raycluster, namespace: ml}
spec:
  headGroupSpec:
    template:
      spec:
        containers: [{name: ray-head, image: rayproject/ray:2.9.0}]
status:
  state: ready
  conditions:
  - {type: HeadPodReady, status: "True", reason: HeadPodRunningAndReady, message: "", lastTransitionTime: "2026-03-01T10:00:00Z"}
`

func object(t *testing.T, doc string, edit func(map[string]any)) *unstructured.Unstructured {
	t.Helper()
	var obj map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(doc), &obj))
	if edit != nil {
		edit(obj)
	}
	return &unstructured.Unstructured{Object: obj}
}

func status(obj map[string]any) map[string]any { return obj["status"].(map[string]any) }

func condition(obj map[string]any) map[string]any {
	return status(obj)["conditions"].([]any)[0].(map[string]any)
}

func TestValidate(t *testing.T) {
	schemas := crds(t)
	tests := []struct {
		name string
		edit func(map[string]any)
		want field.ErrorList
	}{
		{name: "valid", edit: nil},
		{name: "a namespaced object without a namespace is put in one",
			edit: func(o map[string]any) { delete(o["metadata"].(map[string]any), "namespace") }},
		{name: "missing required field",
			edit: func(o map[string]any) { delete(o["spec"].(map[string]any), "headGroupSpec") },
			want: field.ErrorList{field.Required(field.NewPath("spec", "headGroupSpec"), "")}},
		{name: "missing required field of a list item",
			edit: func(o map[string]any) { delete(condition(o), "reason") },
			want: field.ErrorList{field.Required(field.NewPath("status", "conditions").Index(0).Child("reason"), "")}},
		{name: "wrong type",
			edit: func(o map[string]any) { o["spec"].(map[string]any)["suspend"] = "yes" },
			want: field.ErrorList{field.TypeInvalid(field.NewPath("spec", "suspend"), "string", `spec.suspend in body must be of type boolean: "string"`)}},
		{name: "bad enum",
			edit: func(o map[string]any) { condition(o)["status"] = "Maybe" },
			want: field.ErrorList{field.NotSupported(field.NewPath("status", "conditions").Index(0).Child("status"), "Maybe",
				[]string{"True", "False", "Unknown"})}},
		{name: "bad format",
			edit: func(o map[string]any) { condition(o)["lastTransitionTime"] = "yesterday" },
			want: field.ErrorList{field.TypeInvalid(field.NewPath("status", "conditions").Index(0).Child("lastTransitionTime"), "yesterday",
				`status.conditions[0].lastTransitionTime in body must be of type date-time: "yesterday"`)}},
		{name: "duplicate map-list keys",
			edit: func(o map[string]any) {
				s := status(o)
				s["conditions"] = append(s["conditions"].([]any), condition(o))
			},
			want: field.ErrorList{field.Duplicate(field.NewPath("status", "conditions").Index(1), map[string]any{"type": "HeadPodReady"})}},
		{name: "unknown field",
			edit: func(o map[string]any) { o["spec"].(map[string]any)["replicas"] = int64(3) },
			want: field.ErrorList{field.Forbidden(field.NewPath("spec", "replicas"), crdschema.UnknownField)}},
		{name: "CEL rule",
			edit: func(o map[string]any) { o["spec"].(map[string]any)["managedBy"] = "someone" },
			want: field.ErrorList{field.Invalid(field.NewPath("spec", "managedBy"), "someone",
				"the managedBy field value must be either 'ray.io/kuberay-operator' or 'kueue.x-k8s.io/multikueue'")}},
		{name: "bad metadata",
			edit: func(o map[string]any) { o["metadata"].(map[string]any)["name"] = "Not_A_Name" },
			want: field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), "Not_A_Name",
				"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")}},
		{name: "unserved kind",
			edit: func(o map[string]any) { o["apiVersion"] = "ray.io/v9" },
			want: field.ErrorList{field.NotFound(field.NewPath("apiVersion"), "no CRD schema for ray.io/v9 RayCluster")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, rayCluster, tt.edit)
			before := obj.DeepCopy()
			assert.Equal(t, tt.want, withoutOrigin(schemas.Validate(obj)))
			assert.Equal(t, before, obj, "the object is left as it was")
		})
	}
}

func TestValidateStatus(t *testing.T) {
	schemas := crds(t)
	gvk := schema.GroupVersionKind{Group: "ray.io", Version: "v1", Kind: "RayCluster"}
	tests := []struct {
		name string
		edit func(map[string]any)
		want field.ErrorList
	}{
		{name: "valid", edit: nil},
		{name: "bad enum",
			edit: func(o map[string]any) { condition(o)["status"] = "Maybe" },
			want: field.ErrorList{field.NotSupported(field.NewPath("status", "conditions").Index(0).Child("status"), "Maybe",
				[]string{"True", "False", "Unknown"})}},
		{name: "duplicate map-list keys",
			edit: func(o map[string]any) {
				s := status(o)
				s["conditions"] = append(s["conditions"].([]any), condition(o))
			},
			want: field.ErrorList{field.Duplicate(field.NewPath("status", "conditions").Index(1), map[string]any{"type": "HeadPodReady"})}},
		{name: "unknown field",
			edit: func(o map[string]any) { status(o)["generation"] = int64(3) },
			want: field.ErrorList{field.Forbidden(field.NewPath("status", "generation"), crdschema.UnknownField)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, rayCluster, tt.edit)
			assert.Equal(t, tt.want, withoutOrigin(schemas.ValidateStatus(gvk, obj.Object["status"])))
		})
	}
	t.Run("unknown kind", func(t *testing.T) {
		errs := schemas.ValidateStatus(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, map[string]any{})
		assert.Equal(t, field.ErrorList{field.NotFound(field.NewPath("apiVersion"), "no CRD schema for example.com/v1 Widget")}, errs)
	})
}

// withoutOrigin clears what the tests do not spell out: where in the
// validators an error came from.
func withoutOrigin(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	for _, err := range errs {
		err.Origin, err.CoveredByDeclarative = "", false
	}
	return errs
}

func TestLoad(t *testing.T) {
	t.Run("the project's CRDs", func(t *testing.T) {
		schemas := crds(t)
		assert.True(t, schemas.Has(schema.GroupVersionKind{Group: "helm.toolkit.fluxcd.io", Version: "v2beta1", Kind: "HelmRelease"}))
		assert.Equal(t, "testdata/crds/helm.toolkit.fluxcd.io_helmreleases.yaml",
			schemas.File(schema.GroupVersionKind{Group: "helm.toolkit.fluxcd.io", Version: "v2", Kind: "HelmRelease"}),
			"the first file in name order serving a version wins")
		assert.False(t, schemas.Has(schema.GroupVersionKind{Group: "external-secrets.io", Version: "v1beta1", Kind: "ExternalSecret"}),
			"a version that is not served is not loaded")
	})
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{name: "no file", files: fstest.MapFS{"crds/README.md": {}}, want: "crd directory crds: no *.yaml file"},
		{name: "not YAML", files: fstest.MapFS{"crds/a.yaml": {Data: []byte("[")}},
			want: "crd crds/a.yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content"},
		{name: "not a CRD", files: fstest.MapFS{"crds/a.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\n")}},
			want: `crd crds/a.yaml: kind "ConfigMap", not CustomResourceDefinition`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := crdschema.Load(tt.files, "crds")
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			if tt.name != "no file" {
				var loadErr *crdschema.LoadError
				assert.ErrorAs(t, err, &loadErr)
			}
		})
	}
	t.Run("not structural", func(t *testing.T) {
		schemas, err := crdschema.Load(notStructural, "crds")
		require.NoError(t, err, "a schema is checked on first use")
		errs := schemas.Validate(&unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}}})
		require.Len(t, errs, 1)
		assert.Equal(t, "apiVersion: Internal error: crd crds/a.yaml: version v1: not a structural schema: "+
			"properties[spec].type: Required value: must not be empty for specified object fields", errs[0].Error())
	})
}

// notStructural has a schema the API server refuses: spec has no type.
var notStructural = fstest.MapFS{"crds/a.yaml": {Data: []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {}
`)}}
