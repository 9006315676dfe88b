package source_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/kube/source"
)

// createAll creates objs with a few clients at once, deleting them when the test ends.
func createAll(t *testing.T, cfg *rest.Config, objs []*unstructured.Unstructured) {
	t.Helper()
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 500, 500
	api := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	each := func(f func(u *unstructured.Unstructured) error) error {
		var g errgroup.Group
		g.SetLimit(8)
		for _, u := range objs {
			g.Go(func() error { return f(u) })
		}
		return g.Wait()
	}
	t.Cleanup(func() {
		assert.NoError(t, each(func(u *unstructured.Unstructured) error {
			err := api.Delete(context.Background(), u.GetName(), metav1.DeleteOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}))
	})
	require.NoError(t, each(func(u *unstructured.Unstructured) error {
		_, err := api.Create(context.Background(), u, metav1.CreateOptions{})
		return err
	}))
}

// TestSourceStartsLoaded starts a Source on 1,000 customizations and a
// broken one that exist already: once Start returns every one answers,
// and the broken one's LoadFailed Warning reaches the API server at once,
// with no Normal Event per object before it.
func TestSourceStartsLoaded(t *testing.T) {
	cfg := env.Config(t)
	const n = 1000
	objs := make([]*unstructured.Unstructured, 0, n+1)
	for i := range n {
		objs = append(objs, replicaCustomization(t, fmt.Sprintf("startup-%04d", i), fmt.Sprintf("Startup%04d", i), returning(i)))
	}
	// Last in name order: the informer lists it after the others.
	objs = append(objs, replicaCustomization(t, "startup-zz-broken", "StartupBroken", "function GetReplicas(obj)\n  return 1 +\nend\n"))
	createAll(t, cfg, objs)

	live := startSource(t, cfg)
	started := time.Now()

	t.Run("every customization that existed answers once Start returns", func(t *testing.T) {
		var missing []string
		for i := range n {
			if kind := fmt.Sprintf("Startup%04d", i); replicasOf(live.reg, kind) != int32(i) {
				missing = append(missing, kind)
			}
		}
		assert.Empty(t, missing, "kinds without their customization's answer when Start returned")
		assert.Equal(t, float64(n), live.sample(t, "luainterp_kube_objects", map[string]string{"kind": source.CustomizationKind, "state": "loaded"}))
		assert.Equal(t, 1.0, live.sample(t, "luainterp_kube_objects", map[string]string{"kind": source.CustomizationKind, "state": "invalid"}))
	})
	t.Run("the LoadFailed Warning reaches the API server within 2s", func(t *testing.T) {
		for len(events(t, cfg, "startup-zz-broken", source.ReasonLoadFailed)) == 0 {
			require.Less(t, time.Since(started), 2*time.Second, "no LoadFailed Event within 2s of Start")
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("LoadFailed Event %s after Start returned", time.Since(started).Round(time.Millisecond))
	})
	t.Run("no Normal Event per object loaded at start", func(t *testing.T) {
		for _, name := range []string{"startup-0000", "startup-0500", "startup-0999"} {
			assert.Empty(t, events(t, cfg, name, source.ReasonLoaded), name)
		}
	})
}
