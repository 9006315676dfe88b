package crdschema

import (
	"context"
	"fmt"
	"slices"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// UnknownField is the detail of the error for a field the schema does not
// declare.
const UnknownField = "unknown field: the schema does not declare it, so the API server drops it"

// defaultNamespace is the namespace given to a namespaced object that has
// none, as the namespace of a request's path would be.
const defaultNamespace = "default"

// Validate checks obj against the schema of its apiVersion and kind, as
// the API server does on create; see the package documentation. A kind
// or version with no loaded schema is one error on apiVersion.
func (s *Schemas) Validate(obj *unstructured.Unstructured) field.ErrorList {
	gvk := obj.GroupVersionKind()
	v, errs := s.lookup(gvk)
	if v == nil {
		return errs
	}
	u := obj.DeepCopy()
	errs = v.coerce(u)
	if v.namespaced && u.GetNamespace() == "" {
		u.SetNamespace(defaultNamespace)
	}
	structuraldefaulting.Default(u.Object, v.structural)

	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, validation.ValidateCustomResource(nil, u.Object, v.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(context.Background(), nil, u.Object, v.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, v.structural, u.Object)...)
	return sorted(append(errs, runCEL(v.cel, nil, v.structural, u.Object)...))
}

// ValidateStatus checks status, the value of the status field of an
// object of kind gvk, against that field's schema.
func (s *Schemas) ValidateStatus(gvk schema.GroupVersionKind, status any) field.ErrorList {
	v, errs := s.lookup(gvk)
	if v == nil {
		return errs
	}
	path := field.NewPath("status")
	if v.status == nil {
		return field.ErrorList{field.Forbidden(path, fmt.Sprintf("%s has no status in its schema", gvkString(gvk)))}
	}
	value := runtime.DeepCopyJSONValue(status)
	for _, p := range structuralpruning.PruneWithOptions(value, v.status, false, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
		errs = append(errs, unknown(path, p))
	}
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(value, v.status)
	structuraldefaulting.Default(value, v.status)

	errs = append(errs, validation.ValidateCustomResource(path, value, v.statusValidator)...)
	if m, ok := value.(map[string]any); ok {
		errs = append(errs, schemaobjectmeta.Validate(context.Background(), path, m, v.status, false)...)
		errs = append(errs, listtype.ValidateListSetsAndMaps(path, v.status, m)...)
	}
	return sorted(append(errs, runCEL(v.statusCEL, path, v.status, value)...))
}

// sorted orders errs by field path, keeping the order of errors on the
// same field: the validators walk maps, whose order varies.
func sorted(errs field.ErrorList) field.ErrorList {
	slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
	return errs
}

// lookup returns the validators of gvk, or the error saying there are
// none: no CRD serves gvk, or its schema is not one the API server takes
// (the message of a *LoadError).
func (s *Schemas) lookup(gvk schema.GroupVersionKind) (*validators, field.ErrorList) {
	v := s.versions[gvk]
	if v == nil {
		return nil, field.ErrorList{field.NotFound(field.NewPath("apiVersion"),
			fmt.Sprintf("no CRD schema for %s", gvkString(gvk)))}
	}
	val, err := v.get()
	if err != nil {
		return nil, field.ErrorList{field.InternalError(field.NewPath("apiVersion"), err)}
	}
	return val, nil
}

// coerce prunes and coerces u as the API server does when it decodes a
// custom resource, and returns an error for every field it dropped.
func (v *validators) coerce(u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	opts := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}
	for _, p := range structuralpruning.PruneWithOptions(u.Object, v.structural, true, opts) {
		errs = append(errs, unknown(nil, p))
	}
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
	err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structural, true, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		errs = append(errs, err)
	}
	for _, p := range paths {
		errs = append(errs, unknown(nil, p))
	}
	return errs
}

// unknown is the error for the unknown field at p, a dotted path below
// base as the pruning reports it ("spec.foo", "items[0].bar").
func unknown(base *field.Path, p string) *field.Error {
	if base != nil {
		p = base.String() + "." + p
	}
	return field.Forbidden(field.NewPath(strings.TrimPrefix(p, ".")), UnknownField)
}

// runCEL runs the x-kubernetes-validations rules of c on obj, within the
// cost budget the API server gives one object; nil c (no rules) finds
// nothing.
func runCEL(c *cel.Validator, path *field.Path, s *structuralschema.Structural, obj any) field.ErrorList {
	if c == nil {
		return nil
	}
	errs, _ := c.Validate(context.Background(), path, s, obj, nil, celconfig.RuntimeCELCostBudget)
	return errs
}
