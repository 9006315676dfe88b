package controller

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// finalize deletes the Works of a binding being deleted, then lets the
// binding go by removing BindingFinalizer.
func (c *Controller) finalize(ctx context.Context, key Key, u *unstructured.Unstructured) result {
	n, err := c.deleteWorks(ctx, key, nil)
	if err != nil {
		c.event(ctx, u, corev1.EventTypeWarning, ReasonCleanupFailed, err.Error())
		return result{writes: n, err: err}
	}
	if !slices.Contains(u.GetFinalizers(), BindingFinalizer) {
		return result{writes: n}
	}
	err = c.updateFinalizers(ctx, u, func(f []string) []string {
		return slices.DeleteFunc(f, func(s string) bool { return s == BindingFinalizer })
	})
	if err != nil {
		return result{writes: n, err: err}
	}
	return result{writes: n + 1}
}

// addFinalizer puts BindingFinalizer on the binding before its first Work
// is written, so that its Works are deleted before it goes.
func (c *Controller) addFinalizer(ctx context.Context, u *unstructured.Unstructured) error {
	return c.updateFinalizers(ctx, u, func(f []string) []string {
		if slices.Contains(f, BindingFinalizer) {
			return f
		}
		return append(f, BindingFinalizer)
	})
}

// updateFinalizers writes change(finalizers) on the binding, reading it
// again after a conflict; nothing when the finalizers stay the same or
// the binding is gone.
func (c *Controller) updateFinalizers(ctx context.Context, u *unstructured.Unstructured, change func([]string) []string) error {
	client := c.bindingClient(u)
	current := u
	err := retry.RetryOnConflict(conflictBackoff, func() error {
		if current == nil {
			var err error
			if current, err = client.Get(ctx, u.GetName(), metav1.GetOptions{}); err != nil {
				return err
			}
		}
		before := current.GetFinalizers()
		after := change(slices.Clone(before))
		if slices.Equal(before, after) {
			return nil
		}
		updated := current.DeepCopy()
		updated.SetFinalizers(after)
		current = nil
		_, err := client.Update(ctx, updated, metav1.UpdateOptions{})
		return err
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("update the finalizers of %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return nil
}

func (c *Controller) bindingClient(u *unstructured.Unstructured) dynamic.ResourceInterface {
	if bindingKey(u).Cluster {
		return c.dynamic.Resource(ClusterResourceBindingResource)
	}
	return c.dynamic.Resource(ResourceBindingResource).Namespace(u.GetNamespace())
}
