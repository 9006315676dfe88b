package controller_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/kube/controller"
)

// TestReactions changes, one at a time, each kind of object a binding's
// Works depend on, and the Works follow: they are the pipeline's for what
// is stored after each change.
func TestReactions(t *testing.T) {
	c := newCluster(t)
	rb, template := c.deployment("react", map[string]map[string]any{
		"react-a": {"geo": "eu"}, "react-b": {"geo": "us"},
	}, nil)
	mirror := c.create(objects(t, "policies.yaml", func(u *unstructured.Unstructured) { u.SetName("react-mirror") })[0])
	t.Cleanup(func() { c.delete(mirror) })
	c.run()
	c.converge(rb)

	t.Run("a changed template", func(t *testing.T) {
		c.update(template, func(u *unstructured.Unstructured) {
			containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
			containers[0].(map[string]any)["image"] = "registry.example.com/shop/storefront:2.5.0"
			require.NoError(t, unstructured.SetNestedSlice(u.Object, containers, "spec", "template", "spec", "containers"))
		})
		works := c.converge(rb)
		assert.Contains(t, manifestOf(t, works, "karmada-es-react-a"), `"image":"mirror.eu.example.net/shop/storefront:2.5.0"`)
		assert.Contains(t, manifestOf(t, works, "karmada-es-react-b"), `"image":"registry.example.com/shop/storefront:2.5.0"`)
	})

	t.Run("a changed cluster", func(t *testing.T) {
		c.update(clusterObject("react-b"), func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"geo": "eu"}) })
		works := c.converge(rb)
		assert.Contains(t, manifestOf(t, works, "karmada-es-react-b"), `"image":"mirror.eu.example.net/shop/storefront:2.5.0"`)
	})

	t.Run("a Work changed by hand is put back", func(t *testing.T) {
		work := workRef("karmada-es-react-a", works(c, rb)["karmada-es-react-a"])
		c.update(work, func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(u.Object, true, "spec", "suspendDispatching"))
		})
		c.converge(rb)
	})

	t.Run("a Work's manifest changed by hand is put back", func(t *testing.T) {
		work := workRef("karmada-es-react-b", works(c, rb)["karmada-es-react-b"])
		c.update(work, func(u *unstructured.Unstructured) {
			manifests, _, _ := unstructured.NestedSlice(u.Object, "spec", "workload", "manifests")
			require.NoError(t, unstructured.SetNestedField(manifests[0].(map[string]any), int64(42), "spec", "replicas"))
			require.NoError(t, unstructured.SetNestedSlice(u.Object, manifests, "spec", "workload", "manifests"))
		})
		c.converge(rb)
	})

	t.Run("a Work deleted by hand comes back", func(t *testing.T) {
		work := workRef("karmada-es-react-a", works(c, rb)["karmada-es-react-a"])
		uid := c.get(work).GetUID()
		c.delete(work)
		// Remove the finalizer as the execution controller would; the Work
		// may come back at once, so do not wait for it to be gone.
		c.update(work, func(u *unstructured.Unstructured) { u.SetFinalizers(nil) })
		require.True(t, assertEventually(func() bool {
			again := c.get(work)
			return again != nil && again.GetUID() != uid
		}), "the work did not come back")
		c.converge(rb)
	})

}

// TestConflictRetried updates a Work that someone else writes between
// the controller's read and its update: the update conflicts, the Work is
// read again, and the retry writes the merge of the fresh Work and the
// pipeline's. (A cache behind the API server no longer makes a conflict:
// a Work that is not up to date is read whole before it is merged.)
func TestConflictRetried(t *testing.T) {
	c := newCluster(t)
	rb, _ := c.deployment("conflict", map[string]map[string]any{"conflict-a": nil}, nil)
	desired := &api.Work{}
	for _, w := range c.oracle(rb) {
		decodeInto(t, &unstructured.Unstructured{Object: w}, desired)
	}
	creator, err := controller.New(c.cfg, registry())
	require.NoError(t, err)
	wrote, err := creator.ApplyWork(context.Background(), desired)
	require.NoError(t, err)
	require.True(t, wrote)

	// The first update of the Work is preceded by someone else's.
	cfg := rest.CopyConfig(c.cfg)
	var raced atomic.Bool
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodPut && strings.Contains(req.URL.Path, "/works/") && raced.CompareAndSwap(false, true) {
				c.update(workRef(desired.Namespace, desired.Name), func(u *unstructured.Unstructured) {
					labels := u.GetLabels()
					labels["by-hand"] = "yes"
					u.SetLabels(labels)
				})
			}
			return next.RoundTrip(req)
		})
	})
	m := controller.NewMetrics()
	racing, err := controller.New(cfg, registry(), controller.WithMetrics(m))
	require.NoError(t, err)
	desired.Spec.SuspendDispatching = ptrTo(true)
	wrote, err = racing.ApplyWork(context.Background(), desired)
	require.NoError(t, err)
	assert.True(t, wrote)
	assert.Equal(t, 1.0, counter(t, m, "luainterp_controller_write_conflicts_total", nil))
	got := c.get(workRef(desired.Namespace, desired.Name))
	assert.Equal(t, "yes", got.GetLabels()["by-hand"], "labels are united, none removed")
	suspended, _, _ := unstructured.NestedBool(got.Object, "spec", "suspendDispatching")
	assert.True(t, suspended)
}

// works returns the names of the binding's Works by namespace.
func works(c *cluster, rb *unstructured.Unstructured) map[string]string {
	names := map[string]string{}
	for k := range c.works(rb.GetNamespace(), rb.GetName()) {
		ns, name := split(k)
		names[ns] = name
	}
	return names
}

func workRef(namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(api.WorkAPIVersion)
	u.SetKind(api.KindWork)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

func ptrTo[T any](v T) *T { return &v }
