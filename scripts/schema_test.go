package scripts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/luainterp/luainterp/internal/crdschema"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
)

// crdDir holds the CRDs of the bundled kinds, from the repository root.
const crdDir = "testdata/crds"

// reflectionFields are the fields a reflected status carries beside the
// member's own status: the member object's generation and the template
// generation Karmada stamped on it, which the aggregation compares.
// They are in no CRD's status schema, and are never written to an object.
var reflectionFields = map[string]bool{"status.generation": true, "status.resourceTemplateGeneration": true}

// TestSchemas checks every object of every bundled case against its
// CRD's schema for that version, as the API server would on create: the
// inputs, each member's reflected status (against the status schema),
// the expected outputs, and the outputs the scripts produce. Every
// bundled kind must have a CRD in testdata/crds.
func TestSchemas(t *testing.T) {
	schemas, err := crdschema.Load(os.DirFS(".."), crdDir)
	require.NoError(t, err)
	layer := scripts.NewLayer(luavm.New())
	for _, suite := range loadSuites(t, layer) {
		t.Run(suite.Name, func(t *testing.T) {
			gvk := kindOf(suite.Name)
			require.True(t, schemas.Has(gvk), "no CRD in %s serves %s %s", crdDir, gvk.GroupVersion(), gvk.Kind)
			for _, r := range suite.Run(context.Background(), nil, nil) {
				t.Run(r.Case.Operation.String()+"/"+r.Case.Name, func(t *testing.T) {
					for _, o := range caseObjects(t, r) {
						assert.Empty(t, o.validate(schemas, gvk), "%s: %s is not valid for the CRD (%s)", r.Case.Source, o.name, schemas.File(gvk))
					}
				})
			}
		})
	}
}

// caseObject is one object of a case, or one status.
type caseObject struct {
	name   string
	value  any
	status bool // a status alone, checked against the status schema
}

// validate checks the object against the schemas; a status is checked
// against the status schema of kind gvk, less the reflection fields.
func (o caseObject) validate(schemas *crdschema.Schemas, gvk schema.GroupVersionKind) field.ErrorList {
	if !o.status {
		obj, ok := o.value.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(nil, o.value, "not an object")}
		}
		return schemas.Validate(&unstructured.Unstructured{Object: obj})
	}
	var errs field.ErrorList
	for _, err := range schemas.ValidateStatus(gvk, o.value) {
		if !(err.Type == field.ErrorTypeForbidden && err.Detail == crdschema.UnknownField && reflectionFields[err.Field]) {
			errs = append(errs, err)
		}
	}
	return errs
}

// caseObjects returns the objects of the case r ran and the results it
// produced, as JSON values; nil outputs (no object) are left out.
func caseObjects(t *testing.T, r *testsuite.Result) []caseObject {
	t.Helper()
	c := r.Case
	var objs []caseObject
	add := func(name string, v any, status bool) {
		v = jsonValue(t, v)
		if v != nil {
			objs = append(objs, caseObject{name: name, value: v, status: status})
		}
	}
	if c.DesiredObj != nil {
		add("desiredObj", c.DesiredObj.Object, false)
	}
	if c.ObservedObj != nil {
		add("observedObj", c.ObservedObj.Object, false)
	}
	for i, item := range c.StatusItems {
		if item.Status != nil {
			add(fmt.Sprintf("statusItems[%d].status", i), item.Status, true)
		}
	}
	for _, name := range []string{"revised", "retained", "aggregatedStatus", "status"} {
		status := name == "status"
		if v, ok := c.Output[name]; ok {
			add("expected "+name, v, status)
		}
		if v, ok := r.Results[name]; ok {
			add("produced "+name, v, status)
		}
	}
	return objs
}

// jsonValue returns v as the JSON value it encodes to, with whole numbers
// as int64, as the API server decodes a request.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, utiljson.Unmarshal(data, &out))
	return out
}
