package simulate

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// TaintScenario is scenario.yaml of a cluster-failover case: the taint
// manager's flags and gates, how old each taint is, and whether the
// Cluster exists and the binding is being deleted.
type TaintScenario struct {
	FeatureGates                    map[string]bool `json:"featureGates,omitempty"`
	EnableNoExecuteTaintEviction    bool            `json:"enableNoExecuteTaintEviction"`
	NoExecuteTaintEvictionPurgeMode string          `json:"noExecuteTaintEvictionPurgeMode,omitempty"`
	Taints                          []TaintAge      `json:"taints,omitempty"`
	ClusterExists                   *bool           `json:"clusterExists,omitempty"`
	BindingBeingDeleted             bool            `json:"bindingBeingDeleted,omitempty"`
}

// TaintAge is a taint of the scenario: AgeSeconds is how long ago it was
// added (null: no timeAdded).
type TaintAge struct {
	Key        string             `json:"key"`
	Value      string             `json:"value,omitempty"`
	Effect     corev1.TaintEffect `json:"effect"`
	AgeSeconds *float64           `json:"ageSeconds,omitempty"`
}

// TaintResult is expected.yaml of a cluster-failover case: what the
// cluster's reconcile enqueued, then what the eviction pass of the
// binding on that cluster did. Bindings are keyed
// cluster/namespace/name (cluster/name for a ClusterResourceBinding).
type TaintResult struct {
	Enqueue  TaintEnqueue  `json:"enqueue"`
	Eviction TaintEviction `json:"eviction"`
}

// TaintEnqueue is the cluster reconcile's part of a TaintResult.
type TaintEnqueue struct {
	AddedAfterSeconds   map[string]int64 `json:"addedAfterSeconds"`
	AddedNow            []string         `json:"addedNow"`
	RequeueAfterSeconds int64            `json:"requeueAfterSeconds"`
}

// TaintEviction is the eviction pass's part of a TaintResult: the
// binding's spec.clusters and tasks after it.
type TaintEviction struct {
	Error                 string                     `json:"error,omitempty"`
	Updated               bool                       `json:"updated"`
	Clusters              []api.TargetCluster        `json:"clusters"`
	GracefulEvictionTasks []api.GracefulEvictionTask `json:"gracefulEvictionTasks"`
	RetryAfterSeconds     map[string]int64           `json:"retryAfterSeconds"`
}

// TaintManager runs the taint manager over cluster (nil when there is
// none) and b (neither is modified) as s says, at the simulated clock's
// origin: the reconcile of the cluster, then the eviction pass of b on
// it, as failover.TaintManager's Reconcile and Evict do.
func TaintManager(cluster *api.Cluster, b *api.ResourceBinding, s TaintScenario, opts ...failover.Option) TaintResult {
	now := epoch
	b = clone(b)
	if s.BindingBeingDeleted {
		deleted := metav1.NewTime(now)
		b.DeletionTimestamp = &deleted
	}
	if s.ClusterExists != nil && !*s.ClusterExists {
		cluster = nil
	}
	if cluster != nil {
		cluster = agedCluster(cluster, s.Taints, now)
	}
	m := failover.TaintManager{
		Enabled:   s.EnableNoExecuteTaintEviction,
		PurgeMode: s.NoExecuteTaintEvictionPurgeMode,
		Options:   append([]failover.Option{failover.WithGates(Gates(s.FeatureGates))}, opts...),
	}
	var res TaintResult
	key := func() string {
		k := b.Name
		if b.Namespace != "" {
			k = b.Namespace + "/" + k
		}
		return cluster.Name + "/" + k
	}
	e := m.Reconcile(cluster, []*api.ResourceBinding{b}, now)
	res.Enqueue.RequeueAfterSeconds = requeueSeconds(e.Requeue)
	if len(e.Now) > 0 {
		res.Enqueue.AddedNow = []string{key()}
	}
	if after, ok := e.Later[b]; ok {
		res.Enqueue.AddedAfterSeconds = map[string]int64{key(): requeueSeconds(after)}
	}
	ev, err := m.Evict(cluster, b, now)
	if err != nil {
		res.Eviction.Error = err.Error()
	}
	res.Eviction.Updated = ev.Updated
	if ev.Retry > 0 {
		res.Eviction.RetryAfterSeconds = map[string]int64{key(): requeueSeconds(ev.Retry)}
	}
	res.Eviction.Clusters = b.Spec.Clusters
	res.Eviction.GracefulEvictionTasks = b.Spec.GracefulEvictionTasks
	return res
}

// agedCluster returns a copy of c whose taints were added as long ago as
// the scenario's taint of the same key and effect says; a cluster without
// taints takes the scenario's.
func agedCluster(c *api.Cluster, ages []TaintAge, now time.Time) *api.Cluster {
	out := *c
	out.Spec.Taints = append([]corev1.Taint(nil), c.Spec.Taints...)
	if len(out.Spec.Taints) == 0 {
		for _, a := range ages {
			out.Spec.Taints = append(out.Spec.Taints, corev1.Taint{Key: a.Key, Value: a.Value, Effect: a.Effect})
		}
	}
	for i := range out.Spec.Taints {
		t := &out.Spec.Taints[i]
		for _, a := range ages {
			if a.Key == t.Key && a.Effect == t.Effect && a.AgeSeconds != nil {
				added := metav1.NewTime(now.Add(-seconds2duration(*a.AgeSeconds)))
				t.TimeAdded = &added
				break
			}
		}
	}
	return &out
}
