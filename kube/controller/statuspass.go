package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/interpreter"
)

// ReasonAggregateStatusFailed is the Warning Event on a binding whose
// status pass failed: its AggregateStatus hook (the message names the
// template and the cause; the template's status is left as it was), a
// Work that cannot be read, or a status write.
const ReasonAggregateStatusFailed = "AggregateStatusFailed"

// statusPass runs the status loop over one binding, from the informers'
// caches (binding/status does the computing): the binding's
// status.aggregatedStatus is written when its Works' statuses changed it,
// then the template's status when AggregateStatus changed it. It returns
// the outcome for the metrics, and an error when the binding is to be
// retried.
func (c *Controller) statusPass(ctx context.Context, key Key) (string, error) {
	obj, exists, _ := c.bindingStore(key).GetByKey(key.storeKey())
	if !exists || objectOf(obj) == nil || objectOf(obj).GetDeletionTimestamp() != nil {
		return OutcomeSuccess, nil
	}
	var b api.ResourceBinding
	if err := decodeObject(obj, &b); err != nil {
		return OutcomeFailure, err
	}
	u := unwrap(obj)
	if u == nil {
		return OutcomeFailure, fmt.Errorf("%s: not an object in the cache", key)
	}
	in := status.Input{Binding: key.storeKey(), Resource: b.Spec.Resource, Current: b.Status.AggregatedStatus}
	for _, w := range c.worksOf(key) {
		var work api.Work
		if err := decode(w, &work); err != nil {
			return OutcomeFailure, c.statusFailed(ctx, u, err)
		}
		in.Works = append(in.Works, work)
	}
	passCtx, cancel := context.WithTimeout(ctx, statusBudget)
	defer cancel()
	r := b.Spec.Resource
	gvk := schema.FromAPIVersionAndKind(r.APIVersion, r.Kind)
	// A template the binding may not propagate is not its to aggregate
	// either (TemplateRefused); its binding's status still is.
	if confined(key, r) == nil {
		template, err := c.templates.get(passCtx, gvk, r.Namespace, r.Name)
		if err != nil {
			return OutcomeFailure, c.statusFailed(ctx, u, err)
		}
		in.Template = template
		if template == nil {
			c.status.own.forget(templateIndex(r.APIVersion, r.Kind, r.Namespace, r.Name))
		}
	}
	res, err := c.status.pass.Pass(passCtx, in)
	var hookErr *status.TemplateError
	if err != nil && !errors.As(err, &hookErr) {
		return OutcomeFailure, c.statusFailed(ctx, u, err)
	}
	if res.StatusChanged {
		if err := c.writeBindingStatus(ctx, key, u, res.AggregatedStatus); err != nil {
			return OutcomeFailure, c.statusFailed(ctx, u, err)
		}
	}
	if hookErr == nil && res.TemplateChanged {
		in.Current = res.AggregatedStatus
		hookErr, err = c.writeTemplateStatus(passCtx, gvk, in, res)
		if err != nil {
			return OutcomeFailure, c.statusFailed(ctx, u, err)
		}
	}
	if hookErr != nil {
		return OutcomeHookFailure, c.statusFailed(ctx, u, hookErr)
	}
	return OutcomeSuccess, nil
}

// statusFailed records a failed status pass as a Warning Event on the
// binding and returns err; nothing when the pass was cut short by the
// shutdown or the lease's loss.
func (c *Controller) statusFailed(ctx context.Context, u *unstructured.Unstructured, err error) error {
	if !errors.Is(err, ErrFenced) {
		c.event(ctx, u, corev1.EventTypeWarning, ReasonAggregateStatusFailed, err.Error())
	}
	return err
}

// writeBindingStatus writes items as the binding's status.aggregatedStatus
// through its status subresource, the rest of the binding as stored. A
// conflict reads the binding again, and writes only if it still differs.
func (c *Controller) writeBindingStatus(ctx context.Context, key Key, cached *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) error {
	list, err := itemsValue(items)
	if err != nil {
		return err
	}
	gvr := ResourceBindingResource
	if key.Cluster {
		gvr = ClusterResourceBindingResource
	}
	var client dynamic.ResourceInterface = c.status.client.Resource(gvr)
	if !key.Cluster {
		client = c.status.client.Resource(gvr).Namespace(key.Namespace)
	}
	obj := cached.DeepCopy()
	err = retry.RetryOnConflict(conflictBackoff, func() error {
		if obj == nil {
			fresh, err := client.Get(ctx, key.Name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			var b api.ResourceBinding
			if err := decode(fresh, &b); err != nil {
				return err
			}
			if status.Equal(b.Status.AggregatedStatus, items) {
				return nil
			}
			obj = fresh
		}
		from := obj.GetResourceVersion()
		if list == nil {
			unstructured.RemoveNestedField(obj.Object, "status", "aggregatedStatus")
		} else if err := unstructured.SetNestedSlice(obj.Object, list, "status", "aggregatedStatus"); err != nil {
			return err
		}
		updated, err := client.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		obj = nil
		if err != nil {
			return err
		}
		c.status.own.record(ownKey(updated), from, updated.GetResourceVersion())
		c.o.metrics.status.bindingWrites.Inc()
		return nil
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("update the status of %s: %w", key, err)
	}
	return nil
}

// writeTemplateStatus writes the template's status that the pass res made,
// through its status subresource. A conflict reads the template again and
// runs the pass on it again (the hook reads its generation). It returns
// the hook's failure in that new pass apart from the write's.
func (c *Controller) writeTemplateStatus(ctx context.Context, gvk schema.GroupVersionKind, in status.Input, res status.Result) (*status.TemplateError, error) {
	mapping, err := c.templates.mapping(gvk)
	if err != nil {
		return nil, err
	}
	var client dynamic.ResourceInterface = c.status.client.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		client = c.status.client.Resource(mapping.Resource).Namespace(in.Template.GetNamespace())
	}
	var hookErr *status.TemplateError
	template, fresh := in.Template, false
	err = retry.RetryOnConflict(conflictBackoff, func() error {
		if fresh {
			got, err := client.Get(ctx, template.GetName(), metav1.GetOptions{})
			if err != nil {
				return err
			}
			in.Template, template = got, got
			if res, err = c.status.pass.Pass(ctx, in); err != nil {
				if errors.As(err, &hookErr) {
					return nil
				}
				return err
			}
			if !res.TemplateChanged {
				return nil
			}
		}
		fresh = true
		updated, err := client.UpdateStatus(ctx, res.Template(template), metav1.UpdateOptions{})
		if err != nil {
			return err
		}
		c.status.own.record(ownKey(updated), template.GetResourceVersion(), updated.GetResourceVersion())
		c.o.metrics.status.templateWrites.Inc()
		return nil
	})
	if apierrors.IsNotFound(err) {
		return hookErr, nil // gone: its deletion brings the binding back
	}
	if err != nil {
		return hookErr, fmt.Errorf("update the status of %s %s: %w", gvk.Kind, objectName(template), err)
	}
	return hookErr, nil
}

// itemsValue is items as an unstructured list (integers as int64); nil
// for none.
func itemsValue(items []interpreter.AggregatedStatusItem) ([]any, error) {
	if len(items) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("encode aggregatedStatus: %w", err)
	}
	var list []any
	if err := utiljson.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("decode aggregatedStatus: %w", err)
	}
	return list, nil
}
