package controller

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/tools/cache"
)

// The bindings' and the templates' informers keep each object as a
// cachedObject (trimObject, their transform): its metadata, which the
// event handlers, the store's keys and the indexes read, and the whole
// object as JSON, without managedFields, which view decodes for the
// reconcile, the status pass and the failover controllers. The pipeline
// reads the whole template and the whole binding, so nothing else is
// dropped; but as unstructured maps a binding over 20 clusters and its
// template take 40,104 bytes, as cachedObjects 8,859
// (BenchmarkBindingCache), and they are decoded once per reconcile or
// status pass, not once per event. A fresh decode per read also means no caller can change the
// cache by changing what it was given.

// cachedObject is what the bindings' and the templates' informers keep
// of an object. Its ObjectMeta holds the name, namespace, uid,
// resourceVersion, generation and deletionTimestamp.
type cachedObject struct {
	metav1.ObjectMeta
	apiVersion, kind string
	raw              []byte // the object without managedFields, as JSON
}

// object is what the event handlers read of an object: its metadata and
// type, which a cachedObject gives without decoding and an unstructured
// object gives as it is.
type objectMeta interface {
	metav1.Object
	GetAPIVersion() string
	GetKind() string
}

var (
	_ objectMeta = (*cachedObject)(nil)
	_ objectMeta = (*unstructured.Unstructured)(nil)
)

// trimObject is the transform of the bindings' and the templates'
// informers: it keeps a cachedObject. An update of a cached binding keeps
// the stored managedFields: the API server keeps them when an update has
// none. Anything not a whole object passes as it is.
func trimObject(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, fmt.Errorf("cache %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return &cachedObject{
		ObjectMeta: metav1.ObjectMeta{
			Name:              u.GetName(),
			Namespace:         intern(u.GetNamespace()),
			UID:               u.GetUID(),
			ResourceVersion:   u.GetResourceVersion(),
			Generation:        u.GetGeneration(),
			DeletionTimestamp: u.GetDeletionTimestamp(),
		},
		apiVersion: intern(u.GetAPIVersion()),
		kind:       intern(u.GetKind()),
		raw:        raw,
	}, nil
}

// view decodes the cached object: the object as the API server sent it,
// without managedFields, the caller's own. Integers are int64, as the
// dynamic client gives them.
func (o *cachedObject) view() (*unstructured.Unstructured, error) {
	obj := map[string]any{}
	if err := utiljson.Unmarshal(o.raw, &obj); err != nil {
		return nil, fmt.Errorf("decode cached %s %s: %w", o.kind, o.Name, err)
	}
	return &unstructured.Unstructured{Object: obj}, nil
}

func (o *cachedObject) GetAPIVersion() string { return o.apiVersion }
func (o *cachedObject) GetKind() string       { return o.kind }

// DeepCopyObject and GetObjectKind make a cachedObject a runtime.Object,
// as the informer's store expects its objects to be. The JSON is never
// changed, so copies share it.
func (o *cachedObject) DeepCopyObject() runtime.Object {
	c := *o
	o.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

func (o *cachedObject) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// objectOf returns the object of an informer event as its metadata,
// without decoding it; nil when it is not one.
func objectOf(obj any) objectMeta {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	switch o := obj.(type) {
	case *cachedObject:
		return o
	case *cachedWork:
		return o.view()
	case *unstructured.Unstructured:
		return o
	}
	return nil
}

// decodeObject decodes an object of the informers' caches into a
// binding/api type, from its JSON when it is a cachedObject.
func decodeObject[T any](obj any, out *T) error {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if o, ok := obj.(*cachedObject); ok {
		if err := json.Unmarshal(o.raw, out); err != nil {
			return fmt.Errorf("decode %s %s: %w", o.kind, o.Name, err)
		}
		return nil
	}
	u := unwrap(obj)
	if u == nil {
		return fmt.Errorf("decode %T: not an object", obj)
	}
	return decode(u, out)
}
