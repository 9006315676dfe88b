package testsuite

import (
	"bytes"
	"encoding/json"
)

// decodeLikeKarmada decodes a test case as Karmada's decoder does
// (encoding/json's rules: unknown fields ignored, names matched
// regardless of case, the last of a repeated field kept), with numbers
// as sigs.k8s.io/json keeps them: int64 when whole, else float64.
func decodeLikeKarmada(data []byte, d *document) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(d); err != nil {
		return err
	}
	for _, m := range []map[string]any{d.DesiredObj, d.ObservedObj, d.Output} {
		if _, err := numbers(m); err != nil {
			return err
		}
	}
	return nil
}

// numbers replaces the json.Numbers of a JSON value.
func numbers(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i, nil
		}
		return v.Float64()
	case map[string]any:
		for k, e := range v {
			var err error
			if v[k], err = numbers(e); err != nil {
				return nil, err
			}
		}
	case []any:
		for i, e := range v {
			var err error
			if v[i], err = numbers(e); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// nameOf returns the name of a test case that does not decode, when its
// name does, for messages.
func nameOf(data []byte) string {
	var named struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(data, &named)
	return named.Name
}
