package controller

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
)

// Key names one binding in the work queue: a ResourceBinding by namespace
// and name, a ClusterResourceBinding (Cluster true) by name.
type Key struct {
	Cluster   bool
	Namespace string
	Name      string
}

// String is "ResourceBinding ns/name" or "ClusterResourceBinding name".
func (k Key) String() string {
	if k.Cluster {
		return api.KindClusterResourceBinding + " " + k.Name
	}
	return api.KindResourceBinding + " " + k.Namespace + "/" + k.Name
}

// storeKey is the key of the binding in its informer's store.
func (k Key) storeKey() string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// index is the value Works of this binding are indexed by.
func (k Key) index() string {
	if k.Cluster {
		return "crb/" + k.Name
	}
	return "rb/" + k.Namespace + "/" + k.Name
}

// bindingKey returns the Key of a binding object.
func bindingKey(u objectMeta) Key {
	if u.GetKind() == api.KindClusterResourceBinding {
		return Key{Cluster: true, Name: u.GetName()}
	}
	return Key{Namespace: u.GetNamespace(), Name: u.GetName()}
}

// workOwner returns the Key of the binding a Work belongs to, from the
// annotations the pipeline sets on it; false for a Work of no binding.
func workOwner(work objectMeta) (Key, bool) {
	a := work.GetAnnotations()
	if name := a[api.ClusterResourceBindingNameAnnotation]; name != "" {
		return Key{Cluster: true, Name: name}, true
	}
	if name := a[api.ResourceBindingNameAnnotation]; name != "" {
		return Key{Namespace: a[api.ResourceBindingNamespaceAnnotation], Name: name}, true
	}
	return Key{}, false
}

// workCluster returns the cluster of a Work from its namespace; false when
// the namespace is not an execution namespace.
func workCluster(work *unstructured.Unstructured) (string, bool) {
	return namespaceCluster(work.GetNamespace())
}

// namespaceCluster returns the cluster of an execution namespace.
func namespaceCluster(namespace string) (string, bool) {
	return strings.CutPrefix(namespace, api.ExecutionNamespacePrefix)
}

// templateIndex is the value bindings are indexed by for their template:
// its apiVersion, kind, namespace and name.
func templateIndex(apiVersion, kind, namespace, name string) string {
	return apiVersion + "|" + kind + "|" + namespace + "|" + name
}

// bindingExists reports whether the binding k is in the informers' cache,
// being deleted or not.
func (c *Controller) bindingExists(k Key) bool {
	_, exists, _ := c.bindingStore(k).GetByKey(k.storeKey())
	return exists
}

// cachedBinding returns the binding of key from the informers' cache,
// decoded; nil when it is not there.
func (c *Controller) cachedBinding(key Key) *unstructured.Unstructured {
	obj, exists, _ := c.bindingStore(key).GetByKey(key.storeKey())
	if !exists {
		return nil
	}
	return unwrap(obj)
}

// bindingStore is the informer's store of the bindings of key's kind.
func (c *Controller) bindingStore(key Key) cache.Store {
	if key.Cluster {
		return c.informers.clusterBindings.GetStore()
	}
	return c.informers.bindings.GetStore()
}

// confined returns an error when a binding names a template it may not
// propagate: a ResourceBinding only one of its own namespace, a
// ClusterResourceBinding only a cluster-scoped one. Karmada's detector
// never makes other bindings; one written by hand would otherwise let
// whoever may write bindings in one namespace read any other through the
// controller's service account.
func confined(k Key, r api.ObjectReference) error {
	switch {
	case k.Cluster && r.Namespace != "":
		return fmt.Errorf("%s names %s %s/%s: a ClusterResourceBinding propagates only cluster-scoped templates",
			k, r.Kind, r.Namespace, r.Name)
	case !k.Cluster && r.Namespace != k.Namespace:
		return fmt.Errorf("%s names %s %s/%s: a ResourceBinding propagates only a template of its own namespace %q",
			k, r.Kind, r.Namespace, r.Name, k.Namespace)
	}
	return nil
}
