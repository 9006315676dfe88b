package failover_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/interpreter"
)

var now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func seconds(n int64) *int64 { return &n }

// taint is a NoExecute taint added age ago (none when age < 0).
func taint(key, value string, age time.Duration) corev1.Taint {
	t := corev1.Taint{Key: key, Value: value, Effect: corev1.TaintEffectNoExecute}
	if age >= 0 {
		t.TimeAdded = &metav1.Time{Time: now.Add(-age)}
	}
	return t
}

func TestDecideTaints(t *testing.T) {
	notReady := taint("not-ready", "", 100*time.Second)
	exists := func(key string, secs *int64) corev1.Toleration {
		return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs}
	}
	tests := []struct {
		name        string
		taints      []corev1.Taint
		tolerations []corev1.Toleration
		want        failover.TaintDecision
	}{
		{"no taint", nil, nil, failover.TaintDecision{Verdict: failover.Tolerated}},
		{"untolerated", []corev1.Taint{notReady}, nil, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"Exists, no seconds: forever", []corev1.Taint{notReady}, []corev1.Toleration{exists("not-ready", nil)}, failover.TaintDecision{Verdict: failover.Tolerated}},
		{"Exists with an empty key tolerates every taint", []corev1.Taint{notReady, taint("other", "x", 0)},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists}}, failover.TaintDecision{Verdict: failover.Tolerated}},
		{"an empty effect matches NoExecute", []corev1.Taint{notReady},
			[]corev1.Toleration{{Key: "not-ready", Operator: corev1.TolerationOpExists, TolerationSeconds: seconds(300)}},
			failover.TaintDecision{Verdict: failover.EvictLater, After: 200 * time.Second}},
		{"another effect does not match", []corev1.Taint{notReady},
			[]corev1.Toleration{{Key: "not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			failover.TaintDecision{Verdict: failover.EvictNow}},
		{"Equal with the same value", []corev1.Taint{taint("zone", "a", 10*time.Second)},
			[]corev1.Toleration{{Key: "zone", Operator: corev1.TolerationOpEqual, Value: "a", TolerationSeconds: seconds(60)}},
			failover.TaintDecision{Verdict: failover.EvictLater, After: 50 * time.Second}},
		{"no operator is Equal", []corev1.Taint{taint("zone", "a", 10*time.Second)},
			[]corev1.Toleration{{Key: "zone", Value: "a"}}, failover.TaintDecision{Verdict: failover.Tolerated}},
		{"Equal with another value", []corev1.Taint{taint("zone", "a", 0)},
			[]corev1.Toleration{{Key: "zone", Operator: corev1.TolerationOpEqual, Value: "b"}}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"Gt is not supported", []corev1.Taint{taint("gen", "5", 0)},
			[]corev1.Toleration{{Key: "gen", Operator: corev1.TolerationOpGt, Value: "3"}}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"an unknown operator tolerates nothing", []corev1.Taint{notReady},
			[]corev1.Toleration{{Key: "not-ready", Operator: "Matches"}}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"one of two taints untolerated", []corev1.Taint{notReady, taint("unreachable", "", 0)},
			[]corev1.Toleration{exists("not-ready", nil)}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"two taints: the earliest deadline", []corev1.Taint{notReady, taint("unreachable", "", 50*time.Second)},
			[]corev1.Toleration{exists("not-ready", seconds(300)), exists("unreachable", seconds(120))},
			failover.TaintDecision{Verdict: failover.EvictLater, After: 70 * time.Second}},
		{"the first matching toleration is used", []corev1.Taint{notReady},
			[]corev1.Toleration{exists("not-ready", nil), exists("not-ready", seconds(1))}, failover.TaintDecision{Verdict: failover.Tolerated}},
		{"a used toleration with seconds counts for every taint it tolerates",
			[]corev1.Taint{taint("a", "", 0), taint("b", "", 290*time.Second)},
			[]corev1.Toleration{exists("a", nil), {Operator: corev1.TolerationOpExists, TolerationSeconds: seconds(300)}},
			failover.TaintDecision{Verdict: failover.EvictLater, After: 10 * time.Second}},
		{"expired", []corev1.Taint{notReady}, []corev1.Toleration{exists("not-ready", seconds(100))}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"zero seconds", []corev1.Taint{notReady}, []corev1.Toleration{exists("not-ready", seconds(0))}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"negative seconds", []corev1.Taint{taint("not-ready", "", 0)}, []corev1.Toleration{exists("not-ready", seconds(-5))}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"the most negative seconds", []corev1.Taint{notReady}, []corev1.Toleration{exists("not-ready", seconds(math.MinInt64))}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"huge seconds saturate", []corev1.Taint{notReady}, []corev1.Toleration{exists("not-ready", seconds(math.MaxInt64))},
			failover.TaintDecision{Verdict: failover.EvictLater, After: time.Duration(math.MaxInt64/int64(time.Second))*time.Second - 100*time.Second}},
		{"a taint added in the far past", []corev1.Taint{{Key: "x", Effect: corev1.TaintEffectNoExecute, TimeAdded: &metav1.Time{Time: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}}},
			[]corev1.Toleration{exists("x", seconds(math.MaxInt64))}, failover.TaintDecision{Verdict: failover.EvictNow}},
		{"a taint added in the future", []corev1.Taint{{Key: "x", Effect: corev1.TaintEffectNoExecute, TimeAdded: &metav1.Time{Time: now.Add(time.Hour)}}},
			[]corev1.Toleration{exists("x", seconds(60))}, failover.TaintDecision{Verdict: failover.EvictLater, After: time.Hour + time.Minute}},
		{"a taint without timeAdded has no deadline", []corev1.Taint{taint("not-ready", "", -1)},
			[]corev1.Toleration{exists("not-ready", seconds(0))}, failover.TaintDecision{Verdict: failover.Tolerated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failover.DecideTaints(tt.taints, tt.tolerations, now))
		})
	}
}

func TestNoExecuteTaints(t *testing.T) {
	c := &api.Cluster{}
	c.Spec.Taints = []corev1.Taint{
		{Key: "a", Effect: corev1.TaintEffectNoSchedule},
		{Key: "b", Effect: corev1.TaintEffectNoExecute},
		{Key: "c", Effect: "Evict"},
		{Key: "d", Effect: "noexecute"},
		{Key: "e", Effect: corev1.TaintEffectPreferNoSchedule},
	}
	assert.Equal(t, []corev1.Taint{{Key: "b", Effect: corev1.TaintEffectNoExecute}}, failover.NoExecuteTaints(c))
	assert.Nil(t, failover.NoExecuteTaints(nil))
}

// taintBinding is web-deployment on member1 (2 replicas) and member2, with
// the applied placement's annotation (none when placement is "").
func taintBinding(placement string) *api.ResourceBinding {
	b := &api.ResourceBinding{}
	b.Kind, b.Namespace, b.Name = api.KindResourceBinding, "shop", "web-deployment"
	if placement != "" {
		b.Annotations = map[string]string{api.AppliedPlacementAnnotation: placement}
	}
	b.Spec.Clusters = []api.TargetCluster{{Name: "member1", Replicas: 2}, {Name: "member2", Replicas: 2}}
	return b
}

func TestClusterTolerations(t *testing.T) {
	tests := []struct {
		name   string
		b      *api.ResourceBinding
		want   []corev1.Toleration
		errMsg string
	}{
		{"none", taintBinding(`{"clusterAffinity":{"clusterNames":["member1"]}}`), nil, ""},
		{"one", taintBinding(`{"clusterTolerations":[{"key":"k","operator":"Exists","tolerationSeconds":30}]}`),
			[]corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: seconds(30)}}, ""},
		{"no annotation", taintBinding(""), nil, "the applied placement for ResourceBining can not be empty"},
		{"not JSON", taintBinding(`{bad`), nil, "invalid character 'b' looking for beginning of object key string"},
		{"tolerations of the wrong type", taintBinding(`{"clusterTolerations":"k"}`), nil,
			"json: cannot unmarshal string into Go struct field Placement.clusterTolerations of type []v1.Toleration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := failover.ClusterTolerations(tt.b)
			if tt.errMsg != "" {
				assert.EqualError(t, err, tt.errMsg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestClusterPurgeMode(t *testing.T) {
	withCluster := func(mode string) *api.ResourceBinding {
		b := taintBinding("{}")
		b.Spec.Failover = &api.FailoverBehavior{Cluster: &api.ClusterFailoverBehavior{PurgeMode: mode}}
		return b
	}
	appOnly := taintBinding("{}")
	appOnly.Spec.Failover = &api.FailoverBehavior{Application: &api.ApplicationFailoverBehavior{PurgeMode: api.PurgeModeDirectly}}
	tests := []struct {
		name string
		b    *api.ResourceBinding
		flag string
		want string
	}{
		{"flag default", taintBinding("{}"), "Gracefully", "Gracefully"},
		{"flag Directly", taintBinding("{}"), "Directly", "Directly"},
		{"flag Immediately reads as Directly", taintBinding("{}"), "Immediately", "Directly"},
		{"flag Never gives Gracefully", taintBinding("{}"), "Never", "Gracefully"},
		{"flag unknown", taintBinding("{}"), "Sometimes", "Gracefully"},
		{"binding Directly beats the flag", withCluster("Directly"), "Gracefully", "Directly"},
		{"binding Gracefully beats the flag", withCluster("Gracefully"), "Directly", "Gracefully"},
		{"binding empty is Gracefully", withCluster(""), "Directly", "Gracefully"},
		{"binding Never copied", withCluster("Never"), "Directly", "Never"},
		{"binding deprecated name copied", withCluster("Immediately"), "Gracefully", "Immediately"},
		{"application failover only: the flag", appOnly, "Gracefully", "Gracefully"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failover.ClusterPurgeMode(tt.b, tt.flag))
		})
	}
}

func taintedCluster(taints ...corev1.Taint) *api.Cluster {
	c := &api.Cluster{}
	c.Name = "member1"
	c.Spec.Taints = taints
	return c
}

func TestTaintManagerReconcile(t *testing.T) {
	m := failover.TaintManager{Enabled: true, PurgeMode: api.PurgeModeGracefully}
	untolerated := taintBinding(`{}`)
	noPlacement := taintBinding("")
	pending := taintBinding(`{"clusterTolerations":[{"key":"not-ready","operator":"Exists","tolerationSeconds":300}]}`)
	forever := taintBinding(`{"clusterTolerations":[{"operator":"Exists"}]}`)
	elsewhere := taintBinding(`{}`)
	elsewhere.Spec.Clusters = []api.TargetCluster{{Name: "member2"}}
	all := []*api.ResourceBinding{untolerated, noPlacement, pending, forever, elsewhere}
	tainted := taintedCluster(taint("not-ready", "", 100*time.Second), corev1.Taint{Key: "x", Effect: corev1.TaintEffectNoSchedule})

	e := m.Reconcile(tainted, all, now)
	assert.Equal(t, []*api.ResourceBinding{untolerated, noPlacement}, e.Now)
	assert.Equal(t, map[*api.ResourceBinding]time.Duration{pending: 200 * time.Second}, e.Later)
	assert.Equal(t, failover.ClusterRecheck, e.Requeue)

	for name, tc := range map[string]struct {
		m failover.TaintManager
		c *api.Cluster
	}{
		"eviction disabled": {failover.TaintManager{PurgeMode: api.PurgeModeGracefully}, tainted},
		"NoSchedule only":   {m, taintedCluster(corev1.Taint{Key: "x", Effect: corev1.TaintEffectNoSchedule})},
		"no cluster":        {m, nil},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, failover.Enqueue{}, tc.m.Reconcile(tc.c, all, now))
		})
	}
}

func TestTaintManagerEvict(t *testing.T) {
	m := failover.TaintManager{Enabled: true, PurgeMode: api.PurgeModeGracefully}
	tainted := taintedCluster(taint("not-ready", "", 100*time.Second))
	deleting := taintBinding(`{}`)
	deleting.DeletionTimestamp = &metav1.Time{Time: now}
	evicting := taintBinding(`{}`)
	evicting.Spec.GracefulEvictionTasks = []api.GracefulEvictionTask{{FromCluster: "member1", Reason: "ApplicationFailure", Producer: "x"}}
	stateful := taintBinding(`{}`)
	stateful.Spec.Failover = &api.FailoverBehavior{Cluster: &api.ClusterFailoverBehavior{PurgeMode: api.PurgeModeDirectly,
		StatePreservation: &api.StatePreservation{Rules: []api.StatePreservationRule{{AliasLabelName: "job", JSONPath: "{.jobId}"}}}}}
	stateful.Status.AggregatedStatus = []interpreter.AggregatedStatusItem{{ClusterName: "member1", Status: &runtime.RawExtension{Raw: []byte(`{"jobId":"j-1"}`)}}}
	notCollected := taintBinding(`{}`)
	notCollected.Spec.Failover = stateful.Spec.Failover
	two := int32(2)
	tests := []struct {
		name     string
		m        failover.TaintManager
		b        *api.ResourceBinding
		want     failover.Eviction
		clusters []string
		tasks    []api.GracefulEvictionTask
		err      error
	}{
		{"evicted", m, taintBinding(`{}`), failover.Eviction{Updated: true}, []string{"member2"},
			[]api.GracefulEvictionTask{{FromCluster: "member1", PurgeMode: "Gracefully", Replicas: &two, Reason: "TaintUntolerated", Producer: "TaintManager"}}, nil},
		{"pending", m, taintBinding(`{"clusterTolerations":[{"key":"not-ready","operator":"Exists","tolerationSeconds":300}]}`),
			failover.Eviction{Retry: 200 * time.Second}, []string{"member1", "member2"}, nil, nil},
		{"tolerated forever", m, taintBinding(`{"clusterTolerations":[{"operator":"Exists"}]}`), failover.Eviction{}, []string{"member1", "member2"}, nil, nil},
		{"being deleted", m, deleting, failover.Eviction{}, []string{"member1", "member2"}, nil, nil},
		{"disabled", failover.TaintManager{}, taintBinding(`{}`), failover.Eviction{}, []string{"member1", "member2"}, nil, nil},
		{"no applied placement", m, taintBinding(""), failover.Eviction{}, []string{"member1", "member2"}, nil, failover.ErrNoAppliedPlacement},
		{"already evicting: the entry goes, no second task", m, evicting, failover.Eviction{Updated: true}, []string{"member2"}, evicting.Spec.GracefulEvictionTasks, nil},
		{"state preserved, gate on", failover.TaintManager{Enabled: true, Options: []failover.Option{failover.WithGates(failover.Gates{StatefulFailoverInjection: true})}}, stateful,
			failover.Eviction{Updated: true}, []string{"member2"},
			[]api.GracefulEvictionTask{{FromCluster: "member1", PurgeMode: "Directly", Replicas: &two, Reason: "TaintUntolerated", Producer: "TaintManager",
				PreservedLabelState: map[string]string{"job": "j-1"}}}, nil},
		{"status not collected blocks", failover.TaintManager{Enabled: true, Options: []failover.Option{failover.WithGates(failover.Gates{StatefulFailoverInjection: true})}}, notCollected,
			failover.Eviction{}, []string{"member1", "member2"}, nil, failover.ErrStatusNotCollected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tasksBefore := len(tt.b.Spec.GracefulEvictionTasks)
			ev, err := tt.m.Evict(tainted, tt.b, now)
			if tt.err != nil {
				assert.True(t, errors.Is(err, tt.err), "%v", err)
			} else {
				require.NoError(t, err)
			}
			if len(tt.b.Spec.GracefulEvictionTasks) > tasksBefore {
				require.NotNil(t, ev.Task)
				assert.Equal(t, tt.b.Spec.GracefulEvictionTasks[tasksBefore], *ev.Task)
				ev.Task = nil
			}
			assert.Equal(t, tt.want, ev)
			var names []string
			for _, c := range tt.b.Spec.Clusters {
				names = append(names, c.Name)
			}
			assert.Equal(t, tt.clusters, names)
			assert.Equal(t, tt.tasks, tt.b.Spec.GracefulEvictionTasks)
		})
	}
}
