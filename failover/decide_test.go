package failover_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/failover/preserve"
	"github.com/luainterp/luainterp/interpreter"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newBinding returns a ResourceBinding with failover.application over
// the clusters, each with the health given.
func newBinding(toleration *int32, mode string, clusters ...string) *api.ResourceBinding {
	b := &api.ResourceBinding{}
	b.Kind, b.Name, b.Namespace = api.KindResourceBinding, "web", "shop"
	b.Spec.Resource = api.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
	b.Spec.PropagateDeps = true
	b.Spec.Failover = &api.FailoverBehavior{Application: &api.ApplicationFailoverBehavior{
		DecisionConditions: api.DecisionConditions{TolerationSeconds: toleration},
		PurgeMode:          mode,
		GracePeriodSeconds: ptr.To[int32](600),
	}}
	for i := 0; i+1 < len(clusters); i += 2 {
		b.Spec.Clusters = append(b.Spec.Clusters, api.TargetCluster{Name: clusters[i], Replicas: 2})
		b.Status.AggregatedStatus = append(b.Status.AggregatedStatus, interpreter.AggregatedStatusItem{
			ClusterName: clusters[i], Applied: true, Health: interpreter.ResourceHealth(clusters[i+1]),
			Status: &runtime.RawExtension{Raw: []byte(`{"replicas":2,"jobId":"j-1"}`)},
		})
	}
	return b
}

// TestDecideTolerations is facts 19-20 and docs/failover.md: a missing
// toleration is 300 s, never a panic; a maximal one never requeues on
// first sight and never evicts; a negative one behaves like 0.
func TestDecideTolerations(t *testing.T) {
	tests := []struct {
		name         string
		toleration   *int32
		later        time.Duration
		wantFirst    time.Duration
		wantEvict    bool
		wantWarnings int
	}{
		{"nil takes the CRD default", nil, 301 * time.Second, 300 * time.Second, true, 1},
		{"nil not yet due", nil, 299 * time.Second, 300 * time.Second, false, 1},
		{"maximal", ptr.To[int32](math.MaxInt32), 50 * 365 * 24 * time.Hour, 0, false, 0},
		{"negative is like zero", ptr.To[int32](-5), time.Millisecond, 0, true, 0},
		{"zero needs a later pass", ptr.To[int32](0), time.Millisecond, 0, true, 0},
		{"exactly the toleration is not past it", ptr.To[int32](60), 60 * time.Second, 60 * time.Second, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBinding(tt.toleration, api.PurgeModeGracefully, "member1", "Unhealthy")
			d, err := failover.Decide(t0, b, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wantFirst, d.RequeueAfter)
			assert.Equal(t, failover.Memory{"member1": t0}, d.Memory)
			assert.False(t, d.Update)
			assert.Len(t, d.Warnings, tt.wantWarnings)

			d, err = failover.Decide(t0.Add(tt.later), b, d.Memory)
			require.NoError(t, err)
			assert.Equal(t, tt.wantEvict, d.Update)
			if tt.wantEvict {
				assert.Equal(t, []string{"member1"}, d.Evicted)
				assert.Empty(t, d.Clusters)
				assert.Empty(t, d.Memory)
			}
		})
	}
}

// TestDecideRestart: an empty memory (a restarted controller) starts the
// toleration again instead of evicting early.
func TestDecideRestart(t *testing.T) {
	b := newBinding(ptr.To[int32](60), api.PurgeModeGracefully, "member1", "Unhealthy")
	d, err := failover.Decide(t0, b, nil)
	require.NoError(t, err)
	d, err = failover.Decide(t0.Add(59*time.Second), b, failover.Memory{})
	require.NoError(t, err)
	assert.False(t, d.Update)
	assert.Equal(t, 60*time.Second, d.RequeueAfter)
	d, err = failover.Decide(t0.Add(100*time.Second), b, d.Memory)
	require.NoError(t, err)
	assert.False(t, d.Update, "41 s after the restart")
	assert.Equal(t, 19*time.Second, d.RequeueAfter)
}

func TestDecideHostile(t *testing.T) {
	due := failover.Memory{"member1": t0.Add(-time.Hour), "member2": t0.Add(-time.Hour)}
	t.Run("a duplicate cluster keeps its second entry", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy")
		b.Spec.Clusters = append(b.Spec.Clusters, api.TargetCluster{Name: "member1", Replicas: 3})
		d, err := failover.Decide(t0, b, due)
		require.NoError(t, err)
		assert.Equal(t, []api.TargetCluster{{Name: "member1", Replicas: 3}}, d.Clusters)
		require.Len(t, d.Tasks, 1)
		assert.Equal(t, ptr.To[int32](2), d.Tasks[0].Replicas)
		b.Spec.Clusters, b.Spec.GracefulEvictionTasks = d.Clusters, d.Tasks
		d, err = failover.Decide(t0.Add(time.Hour), b, d.Memory)
		require.NoError(t, err)
		assert.False(t, d.Update, "the cluster has a task: ignored")
	})
	t.Run("duplicate status items, Unhealthy then Healthy, never evict", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy", "member1", "Healthy")
		d, err := failover.Decide(t0, b, nil)
		require.NoError(t, err)
		assert.Empty(t, d.Memory)
		assert.Equal(t, 60*time.Second, d.RequeueAfter)
	})
	t.Run("an unknown purge mode is copied, with a warning", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), "Sideways", "member1", "Unhealthy")
		d, err := failover.Decide(t0, b, due)
		require.NoError(t, err)
		require.Len(t, d.Tasks, 1)
		assert.Equal(t, "Sideways", d.Tasks[0].PurgeMode)
		assert.Nil(t, d.Tasks[0].GracePeriodSeconds)
		assert.Contains(t, d.Warnings[0], `unknown purge mode "Sideways"`)
	})
	t.Run("Graciously needs the gate and names itself", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeGraciously, "member1", "Unhealthy")
		_, err := failover.Decide(t0, b, due, failover.WithGates(failover.Gates{}))
		require.ErrorIs(t, err, failover.ErrGracefulEvictionGate)
		assert.Equal(t, "GracefulEviction featureGate must be enabled when purgeMode is Graciously", err.Error())
		d, err := failover.Decide(t0, b, due)
		require.NoError(t, err)
		assert.Equal(t, ptr.To[int32](600), d.Tasks[0].GracePeriodSeconds)
	})
	t.Run("one failing cluster blocks every eviction and keeps the memory", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy", "member2", "Unhealthy", "member3", "Unhealthy")
		b.Spec.Failover.Application.StatePreservation = &api.StatePreservation{Rules: []api.StatePreservationRule{{AliasLabelName: "id", JSONPath: "{.jobId}"}}}
		b.Status.AggregatedStatus[1].Status = nil
		d, err := failover.Decide(t0, b, due, failover.WithGates(failover.Gates{StatefulFailoverInjection: true, GracefulEviction: true}))
		var ce *failover.ClusterError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "member2", ce.Cluster)
		assert.ErrorIs(t, err, failover.ErrStatusNotCollected)
		assert.Equal(t, "the application status has not yet been collected from Cluster(member2)", err.Error())
		assert.False(t, d.Update)
		assert.Equal(t, b.Spec.Clusters, d.Clusters)
		assert.Equal(t, failover.Memory{"member1": due["member1"], "member2": due["member2"], "member3": t0}, d.Memory)
	})
	t.Run("a bad rule names the rule and the cluster", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy")
		b.Spec.Failover.Application.StatePreservation = &api.StatePreservation{Rules: []api.StatePreservationRule{{AliasLabelName: "id", JSONPath: "{.jobId"}}}
		_, err := failover.Decide(t0, b, due, failover.WithGates(failover.Gates{StatefulFailoverInjection: true}))
		var ce *failover.ClusterError
		var re *preserve.RuleError
		require.ErrorAs(t, err, &ce)
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "member1", ce.Cluster)
		assert.Equal(t, "id", re.Rule.AliasLabelName)
		assert.Equal(t, "unclosed action", err.Error())
	})
	t.Run("an invalid preserved value is injected with a warning", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy")
		b.Spec.Failover.Application.StatePreservation = &api.StatePreservation{Rules: []api.StatePreservationRule{{AliasLabelName: "ts", JSONPath: "{.replicas}e+12"}}}
		d, err := failover.Decide(t0, b, due, failover.WithGates(failover.Gates{StatefulFailoverInjection: true}))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"ts": "2e+12"}, d.Tasks[0].PreservedLabelState)
		assert.Equal(t, []string{"member1"}, d.Tasks[0].ClustersBeforeFailover)
		require.Len(t, d.Warnings, 1)
		assert.Contains(t, d.Warnings[0], "cluster member1: preserved label ts=")
	})
	t.Run("the input binding and memory are not changed", func(t *testing.T) {
		b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy", "member2", "Healthy")
		memory := failover.Memory{"member1": due["member1"]}
		d, err := failover.Decide(t0, b, memory)
		require.NoError(t, err)
		assert.Len(t, b.Spec.Clusters, 2)
		assert.Empty(t, b.Spec.GracefulEvictionTasks)
		assert.Len(t, memory, 1)
		assert.Len(t, d.Clusters, 1)
	})
}

func TestDecideSkip(t *testing.T) {
	tests := []struct {
		name string
		edit func(*api.ResourceBinding)
		hook bool
		want failover.Skip
	}{
		{"no application failover", func(b *api.ResourceBinding) { b.Spec.Failover.Application = nil }, true, failover.SkipNoApplication},
		{"no status", func(b *api.ResourceBinding) { b.Status.AggregatedStatus = nil }, true, failover.SkipNoStatus},
		{"bad apiVersion", func(b *api.ResourceBinding) { b.Spec.Resource.APIVersion = "a/b/c" }, true, failover.SkipBadAPIVersion},
		{"no health hook", func(*api.ResourceBinding) {}, false, failover.SkipNoHealthHook},
		{"RB without propagateDeps", func(b *api.ResourceBinding) { b.Spec.PropagateDeps = false }, true, failover.SkipNoPropagateDeps},
		{"CRB without propagateDeps acts", func(b *api.ResourceBinding) {
			b.Kind, b.Spec.PropagateDeps = api.KindClusterResourceBinding, false
		}, true, failover.SkipNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBinding(ptr.To[int32](60), api.PurgeModeDirectly, "member1", "Unhealthy")
			tt.edit(b)
			d, err := failover.Decide(t0, b, failover.Memory{"member1": t0.Add(-time.Hour)},
				failover.WithHealthHook(func(schema.GroupVersionKind) bool { return tt.hook }))
			require.NoError(t, err)
			assert.Equal(t, tt.want, d.Skip)
			assert.Equal(t, tt.want == failover.SkipNone, d.Update)
			if tt.want != failover.SkipNone {
				assert.Empty(t, d.Memory)
			} else {
				assert.Equal(t, api.EvictionProducerCRBApplicationFailover, d.Tasks[0].Producer)
			}
		})
	}
}
