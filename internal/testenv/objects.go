package testenv

import (
	"context"
	"testing"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// CreateAll creates the cluster-scoped or namespaced objects objs of
// resource gvr, a few at a time on a client of its own (so that cfg's
// rate limit is left to the code under test), and deletes them when the
// test ends. Thousands take seconds, not minutes.
func CreateAll(t testing.TB, cfg *rest.Config, gvr schema.GroupVersionResource, objs []*unstructured.Unstructured) {
	t.Helper()
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 1000, 1000
	dyn := dynamic.NewForConfigOrDie(cfg)
	api := func(u *unstructured.Unstructured) dynamic.ResourceInterface {
		if ns := u.GetNamespace(); ns != "" {
			return dyn.Resource(gvr).Namespace(ns)
		}
		return dyn.Resource(gvr)
	}
	each := func(f func(*unstructured.Unstructured) error) error {
		var g errgroup.Group
		g.SetLimit(8)
		for _, u := range objs {
			g.Go(func() error { return f(u) })
		}
		return g.Wait()
	}
	t.Cleanup(func() {
		if err := each(func(u *unstructured.Unstructured) error {
			err := api(u).Delete(context.Background(), u.GetName(), metav1.DeleteOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			t.Errorf("deleting the objects: %v", err)
		}
	})
	if err := each(func(u *unstructured.Unstructured) error {
		_, err := api(u).Create(context.Background(), u, metav1.CreateOptions{})
		return err
	}); err != nil {
		t.Fatalf("creating the objects: %v", err)
	}
}
