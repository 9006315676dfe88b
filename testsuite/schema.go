package testsuite

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/luainterp/luainterp/internal/crdschema"
)

// reflectionFields are the fields a reflected status carries beside the
// member's own status: the member object's generation and the template
// generation Karmada stamped on it, which the aggregation compares.
// They are in no CRD's status schema, and are never written to an object.
var reflectionFields = map[string]bool{"status.generation": true, "status.resourceTemplateGeneration": true}

// SchemaObject is one object of a case, or one status, to check against a CRD.
type SchemaObject struct {
	Name   string // "desiredObj", "statusItems[0].status", "produced revised"
	Value  any
	Status bool // a status alone, checked against the status schema
}

// Validate checks the object against the schemas, as the API server
// would on create; a status is checked against the status schema of kind
// gvk, less the reflection fields.
func (o SchemaObject) Validate(schemas *crdschema.Schemas, gvk schema.GroupVersionKind) field.ErrorList {
	if !o.Status {
		obj, ok := o.Value.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(nil, o.Value, "not an object")}
		}
		return schemas.Validate(&unstructured.Unstructured{Object: obj})
	}
	var errs field.ErrorList
	for _, err := range schemas.ValidateStatus(gvk, o.Value) {
		if !(err.Type == field.ErrorTypeForbidden && err.Detail == crdschema.UnknownField && reflectionFields[err.Field]) {
			errs = append(errs, err)
		}
	}
	return errs
}

// SchemaObjects returns the objects of the case r ran and of the results
// it produced and expected, as the JSON values the API server would
// decode; nil ones (no object) are left out.
func SchemaObjects(r *Result) ([]SchemaObject, error) {
	c := r.Case
	var objs []SchemaObject
	var errs []error
	add := func(name string, v any, status bool) {
		v, err := jsonValue(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		} else if v != nil {
			objs = append(objs, SchemaObject{Name: name, Value: v, Status: status})
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
	if len(errs) > 0 {
		return objs, errs[0]
	}
	return objs, nil
}

// checkSchema fails r for each object of its case (see SchemaObjects)
// that the CRD of the case's kind in schemas would not take; a kind
// schemas has no CRD for is not checked.
func (r *Result) checkSchema(schemas *crdschema.Schemas) {
	req, err := r.Case.Request()
	if err != nil || r.Case.Err != nil || r.Status == Skip {
		return
	}
	gvk := req.Object.GroupVersionKind()
	if !schemas.Has(gvk) {
		return
	}
	objs, err := SchemaObjects(r)
	if err != nil {
		r.fail("%v", err)
	}
	for _, o := range objs {
		for _, e := range o.Validate(schemas, gvk) {
			r.fail("%s does not validate against the CRD %s: %v", o.Name, schemas.File(gvk), e)
		}
	}
	if len(r.Failures) > 0 {
		r.Status = Fail
	}
}

// jsonValue returns v as the JSON value it encodes to, with whole numbers
// as int64, as the API server decodes a request.
func jsonValue(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = utiljson.Unmarshal(data, &out)
	return out, err
}
