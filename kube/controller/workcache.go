package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"unique"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

// The Works' informer keeps, of each Work, what the controller decides
// from, not the Work: at fleet size the manifests are most of the
// controller's memory (docs/scale.md). trimWork, its transform, keeps
//
//   - the metadata the decisions read: name, namespace, uid,
//     resourceVersion, deletionTimestamp, labels, annotations (without
//     kubectl's last-applied copy) and finalizers;
//   - of each manifest, its apiVersion, kind, namespace and name: the
//     status loop finds the binding's resource among them by ordinal, and
//     a deleted Work's templates are found by them;
//   - the status, which the status loop aggregates;
//   - specDigestKey: the digest of the spec as the API server sent it.
//
// A Work is up to date when writing the pipeline's over it would change
// nothing (upToDate): its labels, annotations and finalizers hold the
// pipeline's, and the digest of the spec the merge would write is the
// cached one. Because the digest is of what is stored, not a record of
// what the controller once wrote, a Work edited by anyone since (its
// manifests, a label, a finalizer) is not up to date and is put right;
// only then is the whole Work read from the API server, to merge with.
//
// Strings that repeat across Works (label and annotation keys and values,
// the binding's names, the manifests' kinds) are interned.

// specDigestKey is the key, at the top of a cached Work, of the digest of
// its spec. It is nothing the API server sends, and no cached Work is
// ever written back.
const specDigestKey = "luainterp.io/spec-digest"

// lastApplied is kubectl's copy of the object it last applied, an
// annotation nothing in the controller reads.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// keptWorkMetadata are the metadata fields of a cached Work.
var keptWorkMetadata = []string{"name", "namespace", "uid", "resourceVersion", "deletionTimestamp", "labels", "annotations", "finalizers"}

// trimWork is the Works informer's transform. Objects it has trimmed
// already, and anything not a Work, pass as they are.
func trimWork(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.Object[specDigestKey] != nil {
		return obj, nil
	}
	meta, _ := u.Object["metadata"].(map[string]any)
	kept := make(map[string]any, len(keptWorkMetadata))
	for _, k := range keptWorkMetadata {
		if v, ok := meta[k]; ok {
			kept[k] = v
		}
	}
	kept["namespace"] = internAny(kept["namespace"])
	kept["labels"] = internMap(kept["labels"], "")
	kept["annotations"] = internMap(kept["annotations"], lastApplied)
	if f, ok := kept["finalizers"].([]any); ok {
		for i := range f {
			f[i] = internAny(f[i])
		}
	}
	for k, v := range kept {
		if v == nil {
			delete(kept, k)
		}
	}
	trimmed := map[string]any{
		"apiVersion":  internAny(u.Object["apiVersion"]),
		"kind":        internAny(u.Object["kind"]),
		"metadata":    kept,
		"spec":        map[string]any{"workload": map[string]any{"manifests": manifestHeads(u)}},
		specDigestKey: specDigest(u.Object["spec"]),
	}
	if status, ok := u.Object["status"]; ok {
		trimmed["status"] = status
	}
	return &unstructured.Unstructured{Object: trimmed}, nil
}

// manifestHeads returns the apiVersion, kind, namespace and name of each
// of the Work's manifests.
func manifestHeads(u *unstructured.Unstructured) []any {
	manifests, _, _ := unstructured.NestedSlice(u.Object, "spec", "workload", "manifests")
	heads := make([]any, 0, len(manifests))
	for _, m := range manifests {
		obj, _ := m.(map[string]any)
		head := map[string]any{}
		for _, k := range []string{"apiVersion", "kind"} {
			if v, ok := obj[k]; ok {
				head[k] = internAny(v)
			}
		}
		meta, _ := obj["metadata"].(map[string]any)
		names := map[string]any{}
		for _, k := range []string{"namespace", "name"} {
			if v, ok := meta[k]; ok {
				names[k] = internAny(v)
			}
		}
		head["metadata"] = names
		heads = append(heads, head)
	}
	return heads
}

// specDigest is the digest of a Work's spec: of its JSON, whose keys
// encoding/json sorts, so that equal specs have equal digests whatever
// their maps' order. A spec that cannot be encoded has none, and its Work
// is never up to date.
func specDigest(spec any) string {
	data, err := json.Marshal(spec)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// upToDate reports whether applyWork would write nothing over the cached
// Work: whether the merge of desired into it (mergeWork) is what is
// stored, from its metadata and its spec's digest.
func upToDate(cached, desired *unstructured.Unstructured) bool {
	digest, _ := cached.Object[specDigestKey].(string)
	if digest == "" {
		return false
	}
	labels := cached.GetLabels()
	if !holds(labels, desired.GetLabels()) || !holds(cached.GetAnnotations(), desired.GetAnnotations()) {
		return false
	}
	finalizers := cached.GetFinalizers()
	if !slices.Equal(mergeFinalizers(finalizers, desired.GetFinalizers()), finalizers) {
		return false
	}
	return specDigest(mergeSpec(labels, desired)) == digest
}

// holds reports whether m has every entry of sub.
func holds(m, sub map[string]string) bool {
	for k, v := range sub {
		if got, ok := m[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func internAny(v any) any {
	if s, ok := v.(string); ok {
		return unique.Make(s).Value()
	}
	return v
}

// internMap interns the keys and values of a string map, leaving out
// the key drop.
func internMap(v any, drop string) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != drop {
			out[unique.Make(k).Value()] = internAny(v)
		}
	}
	return out
}

// trimObject is the transform of the bindings' and the templates'
// informers: their managedFields, which nothing in the controller reads
// and which at fleet size are a good part of each object, are dropped.
// An update of a cached binding keeps the stored managedFields: the API
// server keeps them when an update has none.
func trimObject(obj any) (any, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	}
	return obj, nil
}

// trimCaches sets the transforms of the Works' and the bindings'
// informers.
func (c *Controller) trimCaches() error {
	if err := c.informers.works.SetTransform(trimWork); err != nil {
		return err
	}
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		if err := inf.SetTransform(trimObject); err != nil {
			return err
		}
	}
	return nil
}
