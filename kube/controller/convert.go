package controller

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/luainterp/luainterp/binding/api"
)

// decode converts an object of the informers' caches into a binding/api
// type through JSON, so that the types' own JSON rules (raw messages,
// omitted fields) apply as they do to files.
func decode[T any](u *unstructured.Unstructured, out *T) error {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return fmt.Errorf("encode %s %s: %w", u.GetKind(), objectName(u), err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decode %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return nil
}

// toUnstructured converts a Work of the pipeline into the form the API
// server returns it in: integers as int64, other numbers as float64.
func toUnstructured(w *api.Work) (*unstructured.Unstructured, error) {
	data, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("encode work %s/%s: %w", w.Namespace, w.Name, err)
	}
	obj := map[string]any{}
	if err := utiljson.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("decode work %s/%s: %w", w.Namespace, w.Name, err)
	}
	delete(obj, "status")
	return &unstructured.Unstructured{Object: obj}, nil
}

func objectName(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}
