package overrides

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// applyMetadata adds, replaces or removes keys of metadata.<field>
// ("labels" or "annotations"). add creates the map and overwrites existing
// keys; replace and remove touch only keys that exist. An item that
// changes no key leaves the object as it was (no map is created).
func applyMetadata(obj *unstructured.Unstructured, field string, o *api.MetadataOverrider) error {
	md, ok := obj.Object["metadata"].(map[string]any)
	if !ok {
		return fmt.Errorf("metadata: want an object, got %s", jsonvalue.Describe(obj.Object["metadata"]))
	}
	m, ok := md[field].(map[string]any)
	if md[field] != nil && !ok {
		return fmt.Errorf("metadata.%s: want an object, got %s", field, jsonvalue.Describe(md[field]))
	}
	switch o.Operator {
	case api.OperatorAdd:
		if len(o.Value) == 0 {
			return nil
		}
		if m == nil {
			m = make(map[string]any, len(o.Value))
			md[field] = m
		}
		for k, v := range o.Value {
			m[k] = v
		}
	case api.OperatorReplace:
		for k, v := range o.Value {
			if _, ok := m[k]; ok {
				m[k] = v
			}
		}
	case api.OperatorRemove:
		for k := range o.Value {
			delete(m, k)
		}
	default:
		return unknownOperator(o.Operator, "add, remove or replace")
	}
	return nil
}
