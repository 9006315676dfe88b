package input

import (
	"errors"

	"github.com/luainterp/luainterp/binding/api"
)

// Works returns the Works among docs; every document must be one. Their
// status (conditions and manifestStatuses) is decoded as Karmada's member
// side writes it.
func Works(docs []Document) ([]api.Work, error) {
	works := make([]api.Work, len(docs))
	for i, doc := range docs {
		if err := decode(doc, api.WorkAPIVersion, []string{api.KindWork}, &works[i], false); err != nil {
			return nil, err
		}
	}
	return works, nil
}

// Resource returns the resource a binding is about from the one document
// among docs: a ResourceBinding's or ClusterResourceBinding's
// spec.resource, or the document itself read as a reference (apiVersion,
// kind, namespace, name).
func Resource(docs []Document) (api.ObjectReference, error) {
	var ref api.ObjectReference
	doc, err := single(docs, "resource")
	if err != nil {
		return ref, err
	}
	if apiVersion, _ := doc.Object["apiVersion"].(string); apiVersion == api.BindingAPIVersion {
		b, err := Binding(docs)
		if err != nil {
			return ref, err
		}
		return b.Spec.Resource, nil
	}
	if err := decode(doc, "", nil, &ref, false); err != nil {
		return ref, err
	}
	if ref.Kind == "" || ref.Name == "" {
		return ref, &Error{Source: doc.Source, Err: errors.New("resource: kind and name are required")}
	}
	return ref, nil
}
