package webhook

import (
	"encoding/json"
	"fmt"

	evanphx "github.com/evanphx/json-patch/v5"
	gomodules "gomodules.xyz/jsonpatch/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// CreatePatch returns the RFC 6902 JSON patch that turns the JSON object
// original into obj; nil when there is nothing to change.
func CreatePatch(original []byte, obj *unstructured.Unstructured) ([]byte, error) {
	modified, err := json.Marshal(obj.Object)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	ops, err := gomodules.CreatePatch(original, modified)
	if err != nil {
		return nil, fmt.Errorf("creating patch: %w", err)
	}
	if len(ops) == 0 {
		return nil, nil
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("encoding patch: %w", err)
	}
	return patch, nil
}

// ApplyPatch applies the JSON patch to the JSON object original and
// returns the result, a new object; with no patch, original decoded.
func ApplyPatch(original, patch []byte) (*unstructured.Unstructured, error) {
	result := original
	if len(patch) > 0 {
		var ops []json.RawMessage // for a clearer message than the patch library's
		if err := json.Unmarshal(patch, &ops); err != nil {
			return nil, fmt.Errorf("decoding: want a JSON array of operations: %w", err)
		}
		p, err := evanphx.DecodePatch(patch)
		if err != nil {
			return nil, fmt.Errorf("decoding: %w", err)
		}
		if result, err = p.Apply(original); err != nil {
			return nil, fmt.Errorf("applying: %w", err)
		}
	}
	obj, err := decodeObject(result)
	if err != nil {
		return nil, fmt.Errorf("the patched object: %w", err)
	}
	return obj, nil
}
