package controller

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
)

// The resources the controller reads and writes.
var (
	ResourceBindingResource        = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "resourcebindings"}
	ClusterResourceBindingResource = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "clusterresourcebindings"}
	WorkResource                   = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha1", Resource: "works"}
	ClusterResource                = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}
	OverridePolicyResource         = schema.GroupVersionResource{Group: "policy.karmada.io", Version: "v1alpha1", Resource: "overridepolicies"}
	ClusterOverridePolicyResource  = schema.GroupVersionResource{Group: "policy.karmada.io", Version: "v1alpha1", Resource: "clusteroverridepolicies"}
)

// Index names of the informers' indexers.
const (
	byTemplate = "template" // bindings by templateIndex of spec.resource
	byCluster  = "cluster"  // bindings by the clusters their Works may be in
	byBinding  = "binding"  // Works by Key.index of their binding
)

// informers are the shared informers of the objects the controller
// watches; the templates have their own (templates).
type informers struct {
	bindings, clusterBindings         cache.SharedIndexInformer
	works, clusters                   cache.SharedIndexInformer
	overridePolicies, clusterPolicies cache.SharedIndexInformer
}

func (i *informers) synced() []cache.InformerSynced {
	return []cache.InformerSynced{i.bindings.HasSynced, i.clusterBindings.HasSynced, i.works.HasSynced,
		i.clusters.HasSynced, i.overridePolicies.HasSynced, i.clusterPolicies.HasSynced}
}

// setupInformers makes the informers, their indexes and event handlers.
func (c *Controller) setupInformers() error {
	f := c.factory
	c.informers = informers{
		bindings:         f.ForResource(ResourceBindingResource).Informer(),
		clusterBindings:  f.ForResource(ClusterResourceBindingResource).Informer(),
		works:            f.ForResource(WorkResource).Informer(),
		clusters:         f.ForResource(ClusterResource).Informer(),
		overridePolicies: f.ForResource(OverridePolicyResource).Informer(),
		clusterPolicies:  f.ForResource(ClusterOverridePolicyResource).Informer(),
	}
	if err := c.trimCaches(); err != nil {
		return err
	}
	bindingIndexers := cache.Indexers{byTemplate: indexTemplate, byCluster: indexClusters}
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		if err := inf.AddIndexers(bindingIndexers); err != nil {
			return err
		}
		if _, err := inf.AddEventHandler(c.bindingHandler()); err != nil {
			return err
		}
	}
	if err := c.informers.works.AddIndexers(cache.Indexers{byBinding: indexWorkOwner}); err != nil {
		return err
	}
	c.written.cached = func(key string) string {
		obj, exists, _ := c.informers.works.GetStore().GetByKey(key)
		if m, err := meta.Accessor(obj); exists && err == nil {
			return m.GetResourceVersion()
		}
		return ""
	}
	// A Work changed or deleted by anyone but the controller brings its
	// binding back to be put right; the controller's own writes do not.
	if _, err := c.informers.works.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { call(c.workChanged, obj) },
		UpdateFunc: func(old, obj any) {
			if o, n := unwrap(old), unwrap(obj); o != nil && n != nil && o.GetResourceVersion() != n.GetResourceVersion() {
				c.workChanged(n)
			}
		},
		DeleteFunc: func(obj any) { call(c.workDeleted, obj) },
	}); err != nil {
		return err
	}
	if _, err := c.informers.clusters.AddEventHandler(changed(func(u objectMeta) {
		c.enqueueIndexed(byCluster, u.GetName())
	})); err != nil {
		return err
	}
	for _, inf := range []cache.SharedIndexInformer{c.informers.overridePolicies, c.informers.clusterPolicies} {
		if _, err := inf.AddEventHandler(changed(c.policyChanged)); err != nil {
			return err
		}
	}
	return nil
}

// workChanged enqueues the binding of a Work added or updated, unless
// the controller wrote this version itself.
func (c *Controller) workChanged(u *unstructured.Unstructured) {
	if c.written.seen(u) {
		return
	}
	if k, ok := workOwner(u); ok {
		c.enqueue(k)
	}
}

// workDeleted enqueues the binding of a deleted Work, and the other
// bindings of its template: one of them may have waited for the Work to
// go to write its own (WorkOwnedError).
func (c *Controller) workDeleted(u *unstructured.Unstructured) {
	c.written.forget(objectName(u))
	if k, ok := workOwner(u); ok {
		c.enqueue(k)
	}
	manifests, _, _ := unstructured.NestedSlice(u.Object, "spec", "workload", "manifests")
	for _, m := range manifests {
		if obj, ok := m.(map[string]any); ok {
			t := unstructured.Unstructured{Object: obj}
			c.enqueueIndexed(byTemplate, templateIndex(t.GetAPIVersion(), t.GetKind(), t.GetNamespace(), t.GetName()))
		}
	}
}

// changed calls f for every added and deleted object, and for the old and
// new versions of an updated one unless it is a resync (the same version).
func changed(f func(objectMeta)) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { callObject(f, obj) },
		UpdateFunc: func(old, obj any) {
			o, n := objectOf(old), objectOf(obj)
			if o == nil || n == nil || o.GetResourceVersion() == n.GetResourceVersion() {
				return
			}
			f(o)
			f(n)
		},
		DeleteFunc: func(obj any) { callObject(f, obj) },
	}
}

// call calls f with the object of an informer event, decoded whole.
func call(f func(*unstructured.Unstructured), obj any) {
	if u := unwrap(obj); u != nil {
		f(u)
	}
}

// callObject calls f with the object of an informer event, not decoded.
func callObject(f func(objectMeta), obj any) {
	if o := objectOf(obj); o != nil {
		f(o)
	}
}

// unwrap returns the object of an informer event, decoded whole; nil when
// it is not one.
func unwrap(obj any) *unstructured.Unstructured {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	switch o := obj.(type) {
	case *cachedWork:
		return o.view()
	case *cachedObject:
		u, _ := o.view()
		return u
	case *unstructured.Unstructured:
		return o
	}
	return nil
}

// enqueueIndexed enqueues the bindings of both kinds indexed under value.
func (c *Controller) enqueueIndexed(index, value string) {
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		objs, _ := inf.GetIndexer().ByIndex(index, value)
		for _, obj := range objs {
			callObject(func(o objectMeta) { c.enqueue(bindingKey(o)) }, obj)
		}
	}
}

// enqueueTemplateBindings enqueues the bindings whose template is u.
func (c *Controller) enqueueTemplateBindings(u objectMeta) {
	c.enqueueIndexed(byTemplate, templateIndex(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()))
}

// policyChanged marks the override policies for recompiling and enqueues
// the bindings they may apply to: those of the policy's namespace, or all
// for a ClusterOverridePolicy.
func (c *Controller) policyChanged(u objectMeta) {
	c.policies.invalidate()
	if u.GetKind() == api.KindClusterOverridePolicy {
		c.enqueueAll()
		return
	}
	objs, _ := c.informers.bindings.GetIndexer().ByIndex(cache.NamespaceIndex, u.GetNamespace())
	for _, obj := range objs {
		callObject(func(o objectMeta) { c.enqueue(bindingKey(o)) }, obj)
	}
}

// enqueueAll enqueues every binding.
func (c *Controller) enqueueAll() {
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		for _, obj := range inf.GetStore().List() {
			callObject(func(o objectMeta) { c.enqueue(bindingKey(o)) }, obj)
		}
	}
}

func indexTemplate(obj any) ([]string, error) {
	var b struct {
		Spec struct {
			Resource api.ObjectReference `json:"resource"`
		} `json:"spec"`
	}
	if err := decodeObject(obj, &b); err != nil {
		return nil, nil // an undecodable binding fails its reconcile, not the index
	}
	r := b.Spec.Resource
	return []string{templateIndex(r.APIVersion, r.Kind, r.Namespace, r.Name)}, nil
}

// indexClusters indexes a binding by every cluster its Works may be in:
// spec.clusters, spec.requiredBy's and the graceful eviction tasks'.
func indexClusters(obj any) ([]string, error) {
	var b api.ResourceBinding
	if err := decodeObject(obj, &b); err != nil {
		return nil, nil // an undecodable binding fails its reconcile, not the index
	}
	var names []string
	for _, t := range b.Spec.Clusters {
		names = append(names, t.Name)
	}
	for _, s := range b.Spec.RequiredBy {
		for _, t := range s.Clusters {
			names = append(names, t.Name)
		}
	}
	for _, t := range b.Spec.GracefulEvictionTasks {
		names = append(names, t.FromCluster)
	}
	return names, nil
}

func indexWorkOwner(obj any) ([]string, error) {
	u := unwrap(obj)
	if u == nil {
		return nil, nil
	}
	if k, ok := workOwner(u); ok {
		return []string{k.index()}, nil
	}
	return nil, nil
}
