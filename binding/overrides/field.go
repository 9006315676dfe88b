package overrides

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// applyField patches the JSON or YAML document held in the string at
// o.FieldPath (an RFC 6901 pointer). YAML is read as YAML 1.1, patched as
// JSON and written back with sorted keys; JSON is patched as text. With no
// operations at all, the field becomes "".
func applyField(obj *unstructured.Unstructured, o *api.FieldOverrider) error {
	tokens, err := pointerTokens(o.FieldPath)
	if err != nil {
		return err
	}
	s, err := walk(obj.Object, tokens)
	if err != nil {
		return fmt.Errorf("field path %s: %w", o.FieldPath, err)
	}
	text, ok := s.get().(string)
	if !ok {
		return fmt.Errorf("field path %s: want a string, got %s", o.FieldPath, jsonvalue.Describe(s.get()))
	}
	var out string
	switch {
	case len(o.YAML) > 0:
		out, err = patchYAML(text, fieldOps(o.YAML))
	case len(o.JSON) > 0:
		var patched []byte
		patched, err = applyPatch([]byte(text), fieldOps(o.JSON))
		out = string(patched)
	}
	if err != nil {
		return fmt.Errorf("field path %s: %w", o.FieldPath, err)
	}
	s.set(out)
	return nil
}

func patchYAML(text string, ops []patchOp) (string, error) {
	doc, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return "", fmt.Errorf("read yaml: %w", err)
	}
	patched, err := applyPatch(doc, ops)
	if err != nil {
		return "", err
	}
	out, err := yaml.JSONToYAML(patched)
	if err != nil {
		return "", fmt.Errorf("write yaml: %w", err)
	}
	return string(out), nil
}

func fieldOps(ops []api.FieldPatchOp) []patchOp {
	out := make([]patchOp, len(ops))
	for i, op := range ops {
		out[i] = patchOp{Op: op.Operator, Path: op.SubPath, Value: op.Value}
	}
	return out
}

// plaintextOps are plaintext items as one RFC 6902 patch, applied in order
// and as a whole through a JSON round trip of the object (objectPatch).
func plaintextOps(items []api.PlaintextOverrider) []patchOp {
	ops := make([]patchOp, len(items))
	for i, item := range items {
		ops[i] = patchOp{Op: item.Operator, Path: item.Path, Value: item.Value}
	}
	return ops
}
