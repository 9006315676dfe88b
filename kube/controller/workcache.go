package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"unique"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

// The Works' informer keeps, of each Work, what the controller decides
// from, not the Work: at fleet size the manifests are most of the
// controller's memory (docs/scale.md). trimWork, its transform, keeps a
// cachedWork:
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

// specDigestKey is the key, at the top of a cached Work's view, of the
// digest of its spec. It is nothing the API server sends, and no cached
// Work is ever written back.
const specDigestKey = "luainterp.io/spec-digest"

// lastApplied is kubectl's copy of the object it last applied, an
// annotation nothing in the controller reads.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// cachedWork is what the Works' informer keeps of a Work (trimWork):
// about a tenth of the memory of the Work as unstructured maps. view
// gives it back as a trimmed Work, which is how the rest of the
// controller reads it. Its ObjectMeta holds the name, namespace, uid,
// resourceVersion, deletionTimestamp and finalizers, for the informer's
// keys and indexes; the labels and annotations are pairs.
type cachedWork struct {
	metav1.ObjectMeta
	apiVersion, kind    string
	labels, annotations []string // key, value, key, value…
	heads               []manifestHead
	digest              string
	status              any // as the API server sent it; nil when none
}

// manifestHead names one manifest of a Work.
type manifestHead struct{ apiVersion, kind, namespace, name string }

// trimWork is the Works informer's transform. Anything not a whole Work
// passes as it is.
func trimWork(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	w := &cachedWork{
		ObjectMeta: metav1.ObjectMeta{
			Name:              u.GetName(),
			Namespace:         intern(u.GetNamespace()),
			UID:               u.GetUID(),
			ResourceVersion:   u.GetResourceVersion(),
			DeletionTimestamp: u.GetDeletionTimestamp(),
		},
		apiVersion:  intern(u.GetAPIVersion()),
		kind:        intern(u.GetKind()),
		labels:      pairs(u.GetLabels(), ""),
		annotations: pairs(u.GetAnnotations(), lastApplied),
		digest:      specDigest(u.Object["spec"]),
		status:      u.Object["status"],
	}
	if f := u.GetFinalizers(); len(f) > 0 {
		w.Finalizers = make([]string, len(f))
		for i := range f {
			w.Finalizers[i] = intern(f[i])
		}
	}
	manifests, _, _ := unstructured.NestedSlice(u.Object, "spec", "workload", "manifests")
	w.heads = make([]manifestHead, len(manifests))
	for i, m := range manifests {
		obj, _ := m.(map[string]any)
		mu := unstructured.Unstructured{Object: obj}
		w.heads[i] = manifestHead{apiVersion: intern(mu.GetAPIVersion()), kind: intern(mu.GetKind()),
			namespace: intern(mu.GetNamespace()), name: intern(mu.GetName())}
	}
	return w, nil
}

// view returns the cached Work as a trimmed Work: its metadata, its
// manifests' heads, its status, and specDigestKey.
func (w *cachedWork) view() *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{specDigestKey: w.digest}}
	u.SetAPIVersion(w.apiVersion)
	u.SetKind(w.kind)
	u.SetName(w.Name)
	u.SetNamespace(w.Namespace)
	u.SetUID(w.UID)
	u.SetResourceVersion(w.ResourceVersion)
	u.SetDeletionTimestamp(w.DeletionTimestamp)
	u.SetLabels(fromPairs(w.labels))
	u.SetAnnotations(fromPairs(w.annotations))
	u.SetFinalizers(w.Finalizers)
	heads := make([]any, len(w.heads))
	for i, h := range w.heads {
		m := &unstructured.Unstructured{Object: map[string]any{}}
		m.SetAPIVersion(h.apiVersion)
		m.SetKind(h.kind)
		m.SetNamespace(h.namespace)
		m.SetName(h.name)
		heads[i] = m.Object
	}
	u.Object["spec"] = map[string]any{"workload": map[string]any{"manifests": heads}}
	if w.status != nil {
		u.Object["status"] = w.status
	}
	return u
}

// DeepCopyObject and GetObjectKind make a cachedWork a runtime.Object, as
// the informer's store expects its objects to be; nothing copies it.
func (w *cachedWork) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	c.labels, c.annotations, c.heads = slices.Clone(w.labels), slices.Clone(w.annotations), slices.Clone(w.heads)
	c.status = runtime.DeepCopyJSONValue(w.status)
	return &c
}

func (w *cachedWork) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// pairs returns the entries of m but drop as interned key, value pairs,
// sorted by key.
func pairs(m map[string]string, drop string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != drop {
			out = append(out, intern(k), intern(m[k]))
		}
	}
	return out
}

func fromPairs(p []string) map[string]string {
	if len(p) == 0 {
		return nil
	}
	m := make(map[string]string, len(p)/2)
	for i := 0; i+1 < len(p); i += 2 {
		m[p[i]] = p[i+1]
	}
	return m
}

func intern(s string) string { return unique.Make(s).Value() }

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
