package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/util/retry"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

// errBindingGone ends a failover pass whose binding was deleted while it
// ran: there is nothing left to do.
var errBindingGone = errors.New("binding gone")

// writeBinding runs pass on a copy of the binding u and, when pass says
// so, writes the copy back with a full update: one write per pass. A
// conflict (the cache was behind, or another controller wrote first)
// reads the binding again from the API server and runs pass again on it,
// conflictBackoff's times. It returns errBindingGone when the binding is
// no longer there, and pass's error as is.
func (c *Controller) writeBinding(ctx context.Context, u *unstructured.Unstructured,
	pass func(edited *unstructured.Unstructured) (write bool, err error)) error {
	client := c.bindingClient(u)
	current := u
	err := retry.RetryOnConflict(conflictBackoff, func() error {
		if current == nil {
			fresh, err := client.Get(ctx, u.GetName(), metav1.GetOptions{})
			if err != nil {
				return err
			}
			current = fresh
		}
		edited := current.DeepCopy()
		write, err := pass(edited)
		if err != nil || !write {
			return err
		}
		current = nil
		_, err = client.Update(ctx, edited, metav1.UpdateOptions{})
		return err
	})
	if apierrors.IsNotFound(err) {
		return errBindingGone
	}
	return err
}

// setEvictionSpec sets spec.clusters and spec.gracefulEvictionTasks of the
// binding u; an empty list removes its field, as Karmada's types omit it.
func setEvictionSpec(u *unstructured.Unstructured, clusters []api.TargetCluster, tasks []api.GracefulEvictionTask) error {
	if err := setSpecList(u, "clusters", clusters); err != nil {
		return err
	}
	return setSpecList(u, "gracefulEvictionTasks", tasks)
}

func setSpecList[T any](u *unstructured.Unstructured, field string, list []T) error {
	if len(list) == 0 {
		unstructured.RemoveNestedField(u.Object, "spec", field)
		return nil
	}
	data, err := json.Marshal(list)
	if err != nil {
		return fmt.Errorf("encode spec.%s: %w", field, err)
	}
	var value []any
	if err := utiljson.Unmarshal(data, &value); err != nil {
		return fmt.Errorf("encode spec.%s: %w", field, err)
	}
	return unstructured.SetNestedSlice(u.Object, value, "spec", field)
}

// describe is an eviction's error for an Event: a failing state
// preservation rule is named with its position, alias and JSONPath.
func describe(err error) string {
	if re, ok := errors.AsType[*preserve.RuleError](err); ok {
		return re.Describe()
	}
	return err.Error()
}
