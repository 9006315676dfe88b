package source_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/source"
)

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
	testenv.CreateAll(t, cfg, source.CustomizationResource, objs)

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
