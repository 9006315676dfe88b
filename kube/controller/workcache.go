package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unique"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
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
// What repeats across Works (the labels, annotations and finalizers a
// binding's Works share, the manifests' heads, the namespaces, an empty
// status) is interned: at 5,000 bindings × 20 clusters a cachedWork,
// with its place in the store and the indexes, is about 520 bytes
// (BenchmarkWorkCache).

// specDigestKey is the key, at the top of a cached Work's view, of the
// digest of its spec. It is nothing the API server sends, and no cached
// Work is ever written back.
const specDigestKey = "luainterp.io/spec-digest"

// lastApplied is kubectl's copy of the object it last applied, an
// annotation nothing in the controller reads.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// cachedWork is what the Works' informer keeps of a Work (trimWork):
// about a twentieth of the memory of the Work as unstructured maps. view
// gives it back as a trimmed Work, which is how the rest of the
// controller reads it; GetObjectMeta gives the informer's keys and
// indexes its name and namespace. The labels, the annotations, the
// finalizers and the manifests' heads are each one interned string of
// NUL-separated fields (packed): a binding's Works mostly share them, so
// at fleet size each costs a string header per Work. The status is kept
// as the JSON it came in.
type cachedWork struct {
	name, namespace, uid, resourceVersion string
	deletionTimestamp                     *metav1.Time
	apiVersion, kind                      string
	labels, annotations                   string // packed key, value, key, value…
	finalizers                            string // packed
	heads                                 string // packed apiVersion, kind, namespace, name per manifest
	digest                                [16]byte
	status                                []byte // nil when none
}

// trimWork is the Works informer's transform. Anything not a whole Work
// passes as it is.
func trimWork(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	w := &cachedWork{
		name:              u.GetName(),
		namespace:         intern(u.GetNamespace()),
		uid:               string(u.GetUID()),
		resourceVersion:   u.GetResourceVersion(),
		deletionTimestamp: u.GetDeletionTimestamp(),
		apiVersion:        intern(u.GetAPIVersion()),
		kind:              intern(u.GetKind()),
		labels:            pack(pairs(u.GetLabels(), "")),
		annotations:       pack(pairs(u.GetAnnotations(), lastApplied)),
		finalizers:        pack(u.GetFinalizers()),
	}
	w.digest, _ = specDigest(u.Object["spec"])
	if status, found := u.Object["status"]; found && status != nil {
		raw, err := json.Marshal(status)
		if err != nil {
			return nil, fmt.Errorf("cache work %s: %w", objectName(u), err)
		}
		w.status = internJSON(raw)
	}
	manifests, _, _ := unstructured.NestedSlice(u.Object, "spec", "workload", "manifests")
	heads := make([]string, 0, 4*len(manifests))
	for _, m := range manifests {
		obj, _ := m.(map[string]any)
		mu := unstructured.Unstructured{Object: obj}
		heads = append(heads, mu.GetAPIVersion(), mu.GetKind(), mu.GetNamespace(), mu.GetName())
	}
	w.heads = pack(heads)
	return w, nil
}

// view returns the cached Work as a trimmed Work: its metadata, its
// manifests' heads, its status, and specDigestKey (empty when its spec
// could not be encoded).
func (w *cachedWork) view() *unstructured.Unstructured {
	digest := ""
	if w.digest != ([16]byte{}) {
		digest = hex.EncodeToString(w.digest[:])
	}
	u := &unstructured.Unstructured{Object: map[string]any{specDigestKey: digest}}
	u.SetAPIVersion(w.apiVersion)
	u.SetKind(w.kind)
	u.SetName(w.name)
	u.SetNamespace(w.namespace)
	u.SetUID(types.UID(w.uid))
	u.SetResourceVersion(w.resourceVersion)
	u.SetDeletionTimestamp(w.deletionTimestamp)
	u.SetLabels(fromPairs(unpack(w.labels)))
	u.SetAnnotations(fromPairs(unpack(w.annotations)))
	u.SetFinalizers(unpack(w.finalizers))
	fields := unpack(w.heads)
	heads := make([]any, 0, len(fields)/4)
	for i := 0; i+3 < len(fields); i += 4 {
		m := &unstructured.Unstructured{Object: map[string]any{}}
		m.SetAPIVersion(fields[i])
		m.SetKind(fields[i+1])
		m.SetNamespace(fields[i+2])
		m.SetName(fields[i+3])
		heads = append(heads, m.Object)
	}
	u.Object["spec"] = map[string]any{"workload": map[string]any{"manifests": heads}}
	if w.status != nil {
		var status any
		if err := utiljson.Unmarshal(w.status, &status); err == nil {
			u.Object["status"] = status
		}
	}
	return u
}

// GetObjectMeta gives the informer's key functions and indexers (through
// meta.Accessor) the Work's name and namespace.
func (w *cachedWork) GetObjectMeta() metav1.Object {
	return &metav1.ObjectMeta{Name: w.name, Namespace: w.namespace, UID: types.UID(w.uid),
		ResourceVersion: w.resourceVersion, DeletionTimestamp: w.deletionTimestamp}
}

// DeepCopyObject and GetObjectKind make a cachedWork a runtime.Object, as
// the informer's store expects its objects to be. Its strings and JSON
// are never changed, so copies share them.
func (w *cachedWork) DeepCopyObject() runtime.Object {
	c := *w
	c.deletionTimestamp = w.deletionTimestamp.DeepCopy()
	return &c
}

func (w *cachedWork) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// pairs returns the entries of m but drop as key, value pairs, sorted by
// key.
func pairs(m map[string]string, drop string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != drop {
			out = append(out, k, m[k])
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

// pack joins fields into one interned string, each field ended by a NUL
// (which no Kubernetes name, label or annotation key holds; a value that
// does cannot come back, and its Work is put right).
func pack(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(f)
		b.WriteByte(0)
	}
	return intern(b.String())
}

// unpack returns the fields pack joined; nil for none.
func unpack(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\x00"), "\x00")
}

func intern(s string) string { return unique.Make(s).Value() }

// internJSON interns a status's JSON: Works not yet applied all have the
// same.
func internJSON(raw []byte) []byte {
	if len(raw) > 64 {
		return raw
	}
	return []byte(intern(string(raw)))
}

// specDigest is the digest of a Work's spec: of its JSON, whose keys
// encoding/json sorts, so that equal specs have equal digests whatever
// their maps' order. A spec that cannot be encoded has none (false), and
// its Work is never up to date.
func specDigest(spec any) ([16]byte, bool) {
	data, err := json.Marshal(spec)
	if err != nil {
		return [16]byte{}, false
	}
	sum := sha256.Sum256(data)
	return [16]byte(sum[:16]), true
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
	want, ok := specDigest(mergeSpec(labels, desired))
	return ok && hex.EncodeToString(want[:]) == digest
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
