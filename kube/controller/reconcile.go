package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// BindingFinalizer is the finalizer the controller puts on bindings, so
// that their Works are deleted before they go (Karmada's binding
// controller uses the same).
const BindingFinalizer = "karmada.io/binding-controller"

// Event reasons on bindings.
const (
	ReasonSyncWorkFailed  = "SyncWorkFailed"  // a target cluster failed: the message names it and the cause
	ReasonSyncWorkSucceed = "SyncWorkSucceed" // Works were written or deleted, and no cluster failed
	ReasonCleanupFailed   = "CleanupWorkFailed"
	// ReasonTemplateRefused: the binding names a template outside its
	// namespace (or, for a ClusterResourceBinding, a namespaced one); no
	// Work is written for it.
	ReasonTemplateRefused = "TemplateRefused"
	// ReasonWorkOwned counts, in luainterp_controller_refusals_total, the
	// Works not written because another binding owns them; the Event is
	// SyncWorkFailed, naming the cluster and the owner.
	ReasonWorkOwned = "WorkOwnedByAnotherBinding"
)

// purgeWait is how long a binding waits for the Work of a cluster purged
// Directly to go before it is reconciled again.
const purgeWait = failover.PurgeWait

// result is the outcome of one reconcile.
type result struct {
	writes int           // Works created, updated or deleted, and finalizer changes
	after  time.Duration // reconcile again after this long (a purge pending)
	err    error         // retry with back-off
}

func (r result) outcome() string {
	switch {
	case r.err != nil:
		return OutcomeFailure
	case r.after > 0:
		return OutcomeRequeue
	}
	return OutcomeSuccess
}

// reconcile makes the Works of one binding what the pipeline says, or
// deletes them when the binding is gone or going.
func (c *Controller) reconcile(ctx context.Context, key Key) (res result) {
	obj, exists, err := c.bindingStore(key).GetByKey(key.storeKey())
	if err != nil {
		return result{err: err}
	}
	if !exists {
		res.writes, res.err = c.deleteWorks(ctx, key, nil)
		return res
	}
	var b api.ResourceBinding
	if err := decodeObject(obj, &b); err != nil {
		return result{err: err}
	}
	u := unwrap(obj)
	if u == nil {
		return result{err: fmt.Errorf("%s: not an object in the cache", key)}
	}
	if u.GetDeletionTimestamp() != nil {
		return c.finalize(ctx, key, u)
	}
	if !slices.Contains(b.Finalizers, BindingFinalizer) {
		if err := c.addFinalizer(ctx, u); err != nil {
			return result{err: err}
		}
		res.writes++
	}
	works := c.worksOf(key)
	expected := failover.RetainedClusters(&b.Spec)
	n, err := c.deleteWorks(ctx, key, func(w *unstructured.Unstructured) bool {
		cluster, _ := workCluster(w)
		return !expected[cluster]
	})
	res.writes += n
	if err != nil {
		res.err = err
		return res
	}
	if purgePending(&b.Spec, works) {
		res.after = purgeWait
		return res
	}
	n, err = c.sync(ctx, u, &b)
	res.writes += n
	res.err = err
	return res
}

// sync runs the pipeline for the binding and writes its Works; the
// clusters that fail get an Event each and the others proceed.
func (c *Controller) sync(ctx context.Context, u *unstructured.Unstructured, b *api.ResourceBinding) (int, error) {
	r := b.Spec.Resource
	key := bindingKey(u)
	if err := confined(key, r); err != nil {
		// Never retried: the binding's next change brings it back.
		c.o.metrics.refusals.WithLabelValues(ReasonTemplateRefused).Inc()
		c.o.log.Warn("binding refused", "binding", key.String(), "error", err)
		c.event(ctx, u, corev1.EventTypeWarning, ReasonTemplateRefused, err.Error())
		return 0, nil
	}
	template, err := c.templates.get(ctx, schema.FromAPIVersionAndKind(r.APIVersion, r.Kind), r.Namespace, r.Name)
	if err != nil {
		c.event(ctx, u, corev1.EventTypeWarning, ReasonSyncWorkFailed, err.Error())
		return 0, err
	}
	if template == nil {
		// As in Karmada: no template, no Work; its creation enqueues the binding.
		return 0, nil
	}
	in := binding.Input{
		Template:  template,
		Binding:   b,
		Clusters:  c.clustersOf(b),
		Overrides: c.policies.get(c.informers.clusterPolicies.GetStore(), c.informers.overridePolicies.GetStore()),
	}
	out, err := c.pipeline.Run(ctx, in)
	if err != nil {
		c.event(ctx, u, corev1.EventTypeWarning, ReasonSyncWorkFailed, err.Error())
		return 0, err
	}
	var errs []error
	for _, cr := range out.Clusters {
		if cr.Err != nil {
			errs = append(errs, c.clusterFailed(ctx, u, cr.Cluster, cr.Err))
		}
	}
	writes := 0
	for _, w := range out.Works() {
		c.labelWork(u, w)
		wrote, err := c.applyWork(ctx, key, w)
		if wrote {
			writes++
		}
		if err != nil {
			cluster, _ := namespaceCluster(w.Namespace)
			errs = append(errs, c.clusterFailed(ctx, u, cluster, err))
		}
	}
	if len(errs) == 0 && writes > 0 {
		c.event(ctx, u, corev1.EventTypeNormal, ReasonSyncWorkSucceed, fmt.Sprintf("%d works written", writes))
	}
	return writes, utilerrors.NewAggregate(errs)
}

// clusterFailed records a cluster's failure: a metric and an Event naming
// the cluster and the cause. It returns the error as a *binding.ClusterError.
func (c *Controller) clusterFailed(ctx context.Context, u *unstructured.Unstructured, cluster string, err error) error {
	var ce *binding.ClusterError
	if !errors.As(err, &ce) {
		err = &binding.ClusterError{Cluster: cluster, Err: err}
	}
	c.o.metrics.clusterFailures.WithLabelValues(cluster).Inc()
	c.event(ctx, u, corev1.EventTypeWarning, ReasonSyncWorkFailed, err.Error())
	return err
}

// clustersOf returns the Cluster objects of the binding's target
// clusters that exist; the pipeline fails the others.
func (c *Controller) clustersOf(b *api.ResourceBinding) []api.Cluster {
	var clusters []api.Cluster
	seen := map[string]bool{}
	for _, t := range binding.TargetClusters(&b.Spec) {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		obj, exists, _ := c.informers.clusters.GetStore().GetByKey(t.Name)
		u := unwrap(obj)
		if !exists || u == nil {
			continue
		}
		var cluster api.Cluster
		if err := decode(u, &cluster); err != nil {
			c.o.log.Error("cluster left out", "cluster", t.Name, "error", err)
			continue
		}
		clusters = append(clusters, cluster)
	}
	return clusters
}

// worksOf returns the Works of the binding in the cache.
func (c *Controller) worksOf(key Key) []*unstructured.Unstructured {
	objs, _ := c.informers.works.GetIndexer().ByIndex(byBinding, key.index())
	works := make([]*unstructured.Unstructured, 0, len(objs))
	for _, obj := range objs {
		if u := unwrap(obj); u != nil {
			works = append(works, u)
		}
	}
	return works
}

// purgePending reports whether a Work of the binding remains in a cluster
// an eviction purges Directly (failover.DirectlyPurgedClusters).
func purgePending(spec *api.ResourceBindingSpec, works []*unstructured.Unstructured) bool {
	purged := failover.DirectlyPurgedClusters(spec)
	for _, w := range works {
		if cluster, _ := workCluster(w); purged[cluster] {
			return true
		}
	}
	return false
}

// event records an Event on the binding; nothing before Run, nor once
// ctx is done (a reconcile cut short by the shutdown).
func (c *Controller) event(ctx context.Context, u *unstructured.Unstructured, eventType, reason, message string) {
	if c.recorder == nil || ctx.Err() != nil {
		return
	}
	const maxMessage = 1024
	if len(message) > maxMessage {
		message = message[:maxMessage-3] + "..."
	}
	c.recorder.Event(u, eventType, reason, message)
}
