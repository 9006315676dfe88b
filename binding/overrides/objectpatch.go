package overrides

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// objectPatch is an RFC 6902 patch of a whole object (plaintext overriders,
// image predicates), prepared once and applied to any number of objects.
//
// Karmada applies such a patch to the object's JSON encoding and decodes
// the result. The operations this package sends (add, remove, replace and
// test) only read and write below the object that all their paths share as
// parent, and there only at the keys their paths name next. So the patch
// is applied, by the same library, to a document holding just those keys of
// the deepest object on the shared path that the template has, list
// entries included: the rest of the object is
// neither encoded nor decoded, and comes out as the round trip would leave
// it (a JSON-decoded object holds only JSON types, which the round trip
// keeps). When that is not possible (another operation, a path with an
// empty token, which the library reads as its parent) or when the patch
// fails, the whole-object round trip runs, so errors read as Karmada's.
type objectPatch struct {
	ops []patchOp
	// tokens are the operations' paths split at "/" (still escaped); nil
	// when the patch must take the whole-object round trip.
	tokens [][]string
	// shared are the decoded keys of the parent all paths share.
	shared []string
	// locals are the patch relative to the object depth keys down the
	// shared parent's path, by depth, each prepared the first time an
	// object needs it (an object that lacks part of the path stops short
	// of the parent).
	locals []atomic.Pointer[localPatch]
}

// localPatch is an objectPatch relative to an object some keys below the
// root: the keys of that object the operations reach, and the patch with
// paths relative to it.
type localPatch struct {
	keys  []string
	patch jsonpatch.Patch
}

// pointerKeys decodes RFC 6901 escapes exactly as json-patch does.
var pointerKeys = strings.NewReplacer("~1", "/", "~0", "~")

func newObjectPatch(ops []patchOp) *objectPatch {
	p := &objectPatch{ops: ops}
	tokens := make([][]string, len(ops))
	for i, op := range ops {
		switch op.Op {
		case "add", "remove", "replace", "test":
		default:
			return p
		}
		if !strings.HasPrefix(op.Path, "/") {
			return p
		}
		tokens[i] = strings.Split(op.Path[1:], "/")
		if slices.Contains(tokens[i], "") {
			return p
		}
	}
	if len(ops) == 0 {
		return p
	}
	shared := tokens[0][:len(tokens[0])-1]
	for _, t := range tokens[1:] {
		n := 0
		for n < len(shared) && n < len(t)-1 && shared[n] == t[n] {
			n++
		}
		shared = shared[:n]
	}
	p.tokens = tokens
	for _, t := range shared {
		p.shared = append(p.shared, pointerKeys.Replace(t))
	}
	p.locals = make([]atomic.Pointer[localPatch], len(shared)+1)
	return p
}

// local returns the patch relative to the object depth keys below the
// root, preparing it on first use.
func (p *objectPatch) local(depth int) (*localPatch, error) {
	if l := p.locals[depth].Load(); l != nil {
		return l, nil
	}
	l := &localPatch{}
	ops := make([]patchOp, len(p.ops))
	for i, op := range p.ops {
		t := p.tokens[i]
		if key := pointerKeys.Replace(t[depth]); !slices.Contains(l.keys, key) {
			l.keys = append(l.keys, key)
		}
		ops[i] = op
		ops[i].Path = "/" + strings.Join(t[depth:], "/")
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	if l.patch, err = jsonpatch.DecodePatch(raw); err != nil {
		return nil, err
	}
	p.locals[depth].Store(l)
	return l, nil
}

// apply patches obj in place.
func (p *objectPatch) apply(obj *unstructured.Unstructured) error {
	return p.applyValue(obj, nil)
}

// applyValue is apply with value, when not nil, as the value of the
// patch's one operation: an image predicate prepares its replace once and
// writes a different image each time.
func (p *objectPatch) applyValue(obj *unstructured.Unstructured, value json.RawMessage) error {
	if p.tokens != nil && p.applyLocal(obj.Object, value) == nil {
		return nil
	}
	ops := p.ops
	if value != nil {
		ops = []patchOp{{Op: ops[0].Op, Path: ops[0].Path, Value: value}}
	}
	return patchObject(obj, ops)
}

// applyLocal patches the deepest object on the shared parent's path that
// obj has, through list entries too (a patch of
// /spec/template/spec/containers/0/image encodes that container alone); on
// failure obj is unchanged. A non-nil value is applyValue's.
func (p *objectPatch) applyLocal(obj map[string]any, value json.RawMessage) error {
	target, depth := obj, 0
	var node any = obj
	for i, key := range p.shared {
		node = child(node, key)
		if m, ok := node.(map[string]any); ok {
			target, depth = m, i+1
		} else if _, ok := node.([]any); !ok {
			break
		}
	}
	l, err := p.local(depth)
	if err != nil {
		return err
	}
	part := make(map[string]any, len(l.keys))
	for _, k := range l.keys {
		if v, ok := target[k]; ok {
			part[k] = v
		}
	}
	doc, err := json.Marshal(part)
	if err != nil {
		return err
	}
	patch := l.patch
	if value != nil {
		patch = withValue(patch, value)
	}
	if doc, err = patch.Apply(doc); err != nil {
		return err
	}
	var patched map[string]any
	if err := utiljson.Unmarshal(doc, &patched); err != nil {
		return err
	}
	for _, k := range l.keys {
		if v, ok := patched[k]; ok {
			target[k] = v
		} else {
			delete(target, k)
		}
	}
	return nil
}

// withValue returns patch, of one operation, with value as its value.
func withValue(patch jsonpatch.Patch, value json.RawMessage) jsonpatch.Patch {
	op := maps.Clone(patch[0])
	op["value"] = &value
	return jsonpatch.Patch{op}
}

// child returns the value at key of an object, or of a list when key is an
// index json-patch reads as the same entry (a non-negative decimal within
// the list); nil when there is none.
func child(node any, key string) any {
	switch n := node.(type) {
	case map[string]any:
		return n[key]
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(n) {
			return n[i]
		}
	}
	return nil
}
