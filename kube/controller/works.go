package controller

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"

	"github.com/luainterp/luainterp/binding/api"
)

// conflictBackoff is how an update that conflicts is retried, as
// Karmada's binding controller retries it: 5 times, 10 ms apart, 10 %
// jitter.
var conflictBackoff = wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1, Jitter: 0.1}

// WorkDeletingError is the failure to update a Work that is being deleted.
type WorkDeletingError struct{ Namespace, Name string }

func (e *WorkDeletingError) Error() string {
	return "work " + e.Namespace + "/" + e.Name + " is being deleted"
}

// WorkOwnedError is the refusal to write a Work that another binding
// wrote (two bindings of one template make Works of one name): a Work
// belongs to the binding that wrote it until that binding is gone.
type WorkOwnedError struct {
	Namespace, Name string
	Owner           Key
}

func (e *WorkOwnedError) Error() string {
	return "work " + e.Namespace + "/" + e.Name + " belongs to " + e.Owner.String()
}

// applyWork creates the Work or updates it to the merge of what is stored
// and w, as Karmada does; it writes nothing when the merge is what is
// stored, and refuses a Work that another binding still there owns. It
// decides from the cache (a trimmed Work, workcache.go) and reads the
// whole Work from the API server only to merge with it: when the cached
// one is not up to date, the cache may lag behind the controller's own
// last write, or a write conflicts.
func (c *Controller) applyWork(ctx context.Context, key Key, w *api.Work) (wrote bool, err error) {
	desired, err := toUnstructured(w)
	if err != nil {
		return false, err
	}
	client := c.dynamic.Resource(WorkResource).Namespace(w.Namespace)
	create := func() error {
		created, err := client.Create(ctx, desired, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create work %s/%s: %w", w.Namespace, w.Name, err)
		}
		c.written.record(created)
		c.o.metrics.written.WithLabelValues("create").Inc()
		wrote = true
		return nil
	}
	var existing *unstructured.Unstructured // the whole Work, read when it is to be merged
	if !c.written.pending(w.Namespace + "/" + w.Name) {
		obj, exists, _ := c.informers.works.GetStore().GetByKey(w.Namespace + "/" + w.Name)
		cached := unwrap(obj)
		if !exists || cached == nil {
			if err := create(); !apierrors.IsAlreadyExists(err) {
				return wrote, err
			}
		} else {
			if err := c.writable(key, cached); err != nil || upToDate(cached, desired) {
				return false, err
			}
		}
	}
	err = retry.RetryOnConflict(conflictBackoff, func() error {
		if existing == nil {
			var err error
			existing, err = client.Get(ctx, w.Name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return create()
			}
			if err != nil {
				return fmt.Errorf("get work %s/%s: %w", w.Namespace, w.Name, err)
			}
		}
		if err := c.writable(key, existing); err != nil {
			return err
		}
		merged := mergeWork(existing, desired)
		if reflect.DeepEqual(existing.Object, merged.Object) {
			return nil
		}
		existing = nil // read again after a conflict
		updated, err := client.Update(ctx, merged, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			c.o.metrics.conflicts.Inc()
		}
		if err != nil {
			return err
		}
		c.written.record(updated)
		c.o.metrics.written.WithLabelValues("update").Inc()
		wrote = true
		return nil
	})
	if apierrors.IsConflict(err) {
		err = fmt.Errorf("update work %s/%s: %w", w.Namespace, w.Name, err)
	}
	return wrote, err
}

// writable returns why the binding key may not write over the Work w: it
// is being deleted (*WorkDeletingError), or another binding still there
// wrote it (*WorkOwnedError); nil when it may.
func (c *Controller) writable(key Key, w *unstructured.Unstructured) error {
	if w.GetDeletionTimestamp() != nil {
		return &WorkDeletingError{Namespace: w.GetNamespace(), Name: w.GetName()}
	}
	if owner, ok := workOwner(w); ok && owner != key && c.bindingExists(owner) {
		c.o.metrics.refusals.WithLabelValues(ReasonWorkOwned).Inc()
		return &WorkOwnedError{Namespace: w.GetNamespace(), Name: w.GetName(), Owner: owner}
	}
	return nil
}

// mergeWork returns existing updated with desired, as Karmada updates a
// Work: labels and annotations united (desired winning, none removed),
// finalizers united and sorted, the spec replaced; and the Work's
// work.karmada.io/permanent-id label, which Karmada's admission sets, copied
// onto the manifests with their managed-labels record.
func mergeWork(existing, desired *unstructured.Unstructured) *unstructured.Unstructured {
	merged := existing.DeepCopy()
	merged.SetLabels(union(existing.GetLabels(), desired.GetLabels()))
	merged.SetAnnotations(union(existing.GetAnnotations(), desired.GetAnnotations()))
	merged.SetFinalizers(mergeFinalizers(existing.GetFinalizers(), desired.GetFinalizers()))
	merged.Object["spec"] = mergeSpec(existing.GetLabels(), desired)
	return merged
}

// mergeFinalizers is the union of a Work's finalizers and desired's,
// sorted.
func mergeFinalizers(existing, desired []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(existing), desired...))))
}

// mergeSpec is desired's spec as it is written over a Work labelled
// existing: a copy, with the Work's permanent id on its manifests.
func mergeSpec(existing map[string]string, desired *unstructured.Unstructured) map[string]any {
	spec, _ := desired.Object["spec"].(map[string]any)
	spec = runtimeDeepCopy(spec)
	if id := existing[api.WorkPermanentIDLabel]; id != "" {
		setManifestLabel(spec, api.WorkPermanentIDLabel, id)
	}
	return spec
}

func union(a, b map[string]string) map[string]string {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// setManifestLabel sets a label on every manifest of a Work's spec and
// records it in the manifest's managed-labels annotation.
func setManifestLabel(spec map[string]any, key, value string) {
	manifests, _, _ := unstructured.NestedSlice(spec, "workload", "manifests")
	for i, m := range manifests {
		obj, ok := m.(map[string]any)
		if !ok {
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[key] = value
		u.SetLabels(labels)
		keys := make([]string, 0, len(labels))
		for k := range labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		annotations := u.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[api.ManagedLabelsAnnotation] = strings.Join(keys, ",")
		u.SetAnnotations(annotations)
		manifests[i] = u.Object
	}
	if manifests != nil {
		_ = unstructured.SetNestedSlice(spec, manifests, "workload", "manifests")
	}
}

func runtimeDeepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return (&unstructured.Unstructured{Object: m}).DeepCopy().Object
}

// deleteWorks deletes the cached Works of the binding that keep selects
// (all when nil) and are not being deleted yet; it returns how many it
// deleted. The Works' execution-controller finalizer holds them until the
// member cluster's objects are removed, or left in place when the Work's
// spec.preserveResourcesOnDeletion is true.
func (c *Controller) deleteWorks(ctx context.Context, key Key, selects func(*unstructured.Unstructured) bool) (int, error) {
	var errs []error
	deleted := 0
	for _, w := range c.worksOf(key) {
		if w.GetDeletionTimestamp() != nil || (selects != nil && !selects(w)) {
			continue
		}
		uid := w.GetUID()
		err := c.dynamic.Resource(WorkResource).Namespace(w.GetNamespace()).Delete(ctx, w.GetName(),
			metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		switch {
		case err == nil:
			deleted++
			c.o.metrics.deleted.Inc()
			c.o.log.Info("work deleted", "binding", key.String(), "work", objectName(w))
		case apierrors.IsNotFound(err), apierrors.IsConflict(err): // gone, or replaced by another of its name
		default:
			errs = append(errs, fmt.Errorf("delete work %s: %w", objectName(w), err))
		}
	}
	return deleted, utilerrors.NewAggregate(errs)
}

// writes remembers the resourceVersion of the controller's last write of
// each Work until the Works informer has seen it: until then the cache
// is behind and the Work is read from the API server, and once it is
// there the informer's event for it is the controller's own and is not
// acted upon. A write the cache already holds when it is recorded (its
// event came before the write's response) is not remembered: nothing
// would come to forget it, and the Work would be read from the API
// server at every reconcile.
type writes struct {
	cached func(key string) (resourceVersion string) // the Works informer's version of a Work; "" when none

	mu   sync.Mutex
	last map[string]string // namespace/name → resourceVersion
}

func (w *writes) record(u *unstructured.Unstructured) {
	key := objectName(u)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cached != nil && w.cached(key) == u.GetResourceVersion() {
		delete(w.last, key)
		return
	}
	if w.last == nil {
		w.last = map[string]string{}
	}
	w.last[key] = u.GetResourceVersion()
}

// pending reports whether the cache has not yet seen the last write of
// the Work.
func (w *writes) pending(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.last[key]
	return ok
}

// seen reports whether u is the controller's own last write, and forgets
// the write once the informer has a version of the Work at least as new.
func (w *writes) seen(u *unstructured.Unstructured) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	key := objectName(u)
	rv, ok := w.last[key]
	if !ok {
		return false
	}
	delete(w.last, key)
	return rv == u.GetResourceVersion()
}

// forget drops the record of a Work that is gone.
func (w *writes) forget(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.last, key)
}
