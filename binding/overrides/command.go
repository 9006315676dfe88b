package overrides

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
)

// applyCommandArgs adds or removes entries of field ("command" or "args")
// in every regular container named o.ContainerName. A missing field is
// created: with o.Value for add, empty for any other operator.
func applyCommandArgs(obj *unstructured.Unstructured, field string, o *api.CommandArgsOverrider) error {
	list, where, err := containers(obj.Object, obj.GetKind())
	if err != nil {
		return err
	}
	for _, c := range list {
		name, err := c.stringField(where, "name")
		if err != nil {
			return err
		}
		if name != o.ContainerName {
			continue
		}
		current, present, err := c.stringList(where, field)
		if err != nil {
			return err
		}
		var next []string
		switch {
		case !present && o.Operator == api.OperatorAdd:
			next = o.Value
		case !present:
			next = nil
		case o.Operator == api.OperatorAdd:
			next = append(current, o.Value...)
		case o.Operator == api.OperatorRemove:
			next = slices.DeleteFunc(current, func(s string) bool { return slices.Contains(o.Value, s) })
		default:
			next = current
		}
		c.fields[field] = stringsToList(next)
	}
	return nil
}

func stringsToList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
