package overrides

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// patchOp is one RFC 6902 operation; a nil Value is sent as null.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// applyPatch applies ops to the JSON document doc as one RFC 6902 patch,
// with evanphx/json-patch's default options.
func applyPatch(doc []byte, ops []patchOp) ([]byte, error) {
	raw, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return nil, err
	}
	return patch.Apply(doc)
}

// patchObject applies ops to obj through a JSON round trip, as Karmada
// does, and replaces obj's content with the result. Integers come back as
// int64.
func patchObject(obj *unstructured.Unstructured, ops []patchOp) error {
	doc, err := json.Marshal(obj.Object)
	if err != nil {
		return err
	}
	patched, err := applyPatch(doc, ops)
	if err != nil {
		return err
	}
	var out map[string]any
	if err := utiljson.Unmarshal(patched, &out); err != nil {
		return err
	}
	obj.Object = out
	return nil
}

// pointerTokens splits an RFC 6901 JSON pointer into its unescaped tokens.
func pointerTokens(pointer string) ([]string, error) {
	if pointer == "" {
		return nil, nil
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, fmt.Errorf("json pointer %q does not start with /", pointer)
	}
	tokens := strings.Split(pointer[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}

// slot is a place in a JSON document that holds a value: a map key or a
// list index.
type slot struct {
	m     map[string]any
	key   string
	list  []any
	index int
}

func (s slot) get() any {
	if s.m != nil {
		return s.m[s.key]
	}
	return s.list[s.index]
}

func (s slot) set(v any) {
	if s.m != nil {
		s.m[s.key] = v
		return
	}
	s.list[s.index] = v
}

// walk finds the slot that tokens lead to from root. Maps are walked by
// key; at a list the token is a decimal index. Every step but the last must
// exist; the last must too.
func walk(root map[string]any, tokens []string) (slot, error) {
	if len(tokens) == 0 {
		return slot{}, fmt.Errorf("empty path")
	}
	var s slot
	var cur any = root
	for i, tok := range tokens {
		switch node := cur.(type) {
		case map[string]any:
			if _, ok := node[tok]; !ok {
				return slot{}, fmt.Errorf("object has no key %q", strings.Join(tokens[:i+1], "/"))
			}
			s = slot{m: node, key: tok}
		case []any:
			idx, err := strconv.Atoi(tok)
			if err != nil || idx < 0 || idx >= len(node) {
				return slot{}, fmt.Errorf("no index %q in the list at %q", tok, strings.Join(tokens[:i], "/"))
			}
			s = slot{list: node, index: idx}
		default:
			return slot{}, fmt.Errorf("%q is %s, not an object or a list", strings.Join(tokens[:i], "/"), jsonvalue.Describe(cur))
		}
		cur = s.get()
	}
	return s, nil
}
