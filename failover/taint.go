package failover

import (
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"

	"github.com/luainterp/luainterp/binding/api"
)

// ErrNoAppliedPlacement is the error of a binding without the
// policy.karmada.io/applied-placement annotation, with Karmada's message
// (its misspelling included).
var ErrNoAppliedPlacement = errors.New("the applied placement for ResourceBining can not be empty")

// NoExecuteTaints returns the cluster's taints with effect NoExecute, the
// only ones that evict; nil for a nil cluster.
func NoExecuteTaints(c *api.Cluster) []corev1.Taint {
	if c == nil {
		return nil
	}
	var taints []corev1.Taint
	for _, t := range c.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoExecute {
			taints = append(taints, t)
		}
	}
	return taints
}

// ClusterTolerations returns the clusterTolerations of the placement in
// b's applied-placement annotation: ErrNoAppliedPlacement without the
// annotation, the JSON error when it cannot be read.
func ClusterTolerations(b *api.ResourceBinding) ([]corev1.Toleration, error) {
	text, ok := b.Annotations[api.AppliedPlacementAnnotation]
	if !ok {
		return nil, ErrNoAppliedPlacement
	}
	var p api.Placement
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return nil, err
	}
	return p.ClusterTolerations, nil
}

// TaintVerdict is what the taint manager does with a binding on a tainted
// cluster.
type TaintVerdict int

const (
	// Tolerated: every taint is tolerated with no deadline; nothing to do.
	Tolerated TaintVerdict = iota
	// EvictLater: every taint is tolerated until a deadline not yet passed.
	EvictLater
	// EvictNow: a taint is not tolerated, or its toleration has run out.
	EvictNow
)

func (v TaintVerdict) String() string {
	switch v {
	case Tolerated:
		return "Tolerated"
	case EvictLater:
		return "EvictLater"
	case EvictNow:
		return "EvictNow"
	}
	return "TaintVerdict(?)"
}

// TaintDecision is the verdict on one binding and, for EvictLater, how
// long until the toleration runs out (more than 0).
type TaintDecision struct {
	Verdict TaintVerdict
	After   time.Duration
}

// DecideTaints decides, at now, on a binding with tolerations placed on a
// cluster with the NoExecute taints (fact 61). Each taint is tolerated
// by the first toleration that tolerates it under Kubernetes' rules (an
// empty effect or key matches any; Exists matches any value; Equal, or no
// operator, the same value; Lt and Gt nothing); an untolerated taint
// evicts now. The deadline is the earliest timeAdded + tolerationSeconds
// over the taints and the tolerations used that have seconds and tolerate
// them; taints without timeAdded give none. No deadline: Tolerated; a
// deadline at or before now: EvictNow; otherwise EvictLater. Seconds of
// any size are taken without overflow (0 and negative run out at
// timeAdded).
func DecideTaints(taints []corev1.Taint, tolerations []corev1.Toleration, now time.Time) TaintDecision {
	if len(taints) == 0 {
		return TaintDecision{Verdict: Tolerated}
	}
	used := make([]*corev1.Toleration, 0, len(taints))
	for i := range taints {
		tol := firstToleration(tolerations, &taints[i])
		if tol == nil {
			return TaintDecision{Verdict: EvictNow}
		}
		used = append(used, tol)
	}
	remaining, found := time.Duration(0), false
	for _, tol := range used {
		if tol.TolerationSeconds == nil {
			continue
		}
		for i := range taints {
			taint := &taints[i]
			if taint.TimeAdded == nil || !tolerates(tol, taint) {
				continue
			}
			left := untilDeadline(taint.TimeAdded.Time, *tol.TolerationSeconds, now)
			if !found || left < remaining {
				remaining, found = left, true
			}
		}
	}
	switch {
	case !found:
		return TaintDecision{Verdict: Tolerated}
	case remaining <= 0:
		return TaintDecision{Verdict: EvictNow}
	}
	return TaintDecision{Verdict: EvictLater, After: remaining}
}

func firstToleration(tolerations []corev1.Toleration, taint *corev1.Taint) *corev1.Toleration {
	for i := range tolerations {
		if tolerates(&tolerations[i], taint) {
			return &tolerations[i]
		}
	}
	return nil
}

// tolerates matches without the Lt and Gt operators, as Karmada does.
func tolerates(tol *corev1.Toleration, taint *corev1.Taint) bool {
	return tol.ToleratesTaint(logr.Discard(), taint, false)
}

// untilDeadline returns added + seconds - now, saturated to the range of
// a Duration.
func untilDeadline(added time.Time, seconds int64, now time.Time) time.Duration {
	elapsed := now.Sub(added) // saturated by time
	const maxSeconds = int64(math.MaxInt64 / time.Second)
	switch {
	case seconds > maxSeconds:
		seconds = maxSeconds
	case seconds < -maxSeconds:
		seconds = -maxSeconds
	}
	budget := time.Duration(seconds) * time.Second
	if elapsed > 0 && budget < math.MinInt64+elapsed {
		return math.MinInt64
	}
	if elapsed < 0 && budget > math.MaxInt64+elapsed {
		return math.MaxInt64
	}
	return budget - elapsed
}

// ClusterPurgeMode is the purge mode of a taint manager's task (fact 63):
// failover.cluster's purgeMode when b has failover.cluster (empty meaning
// Gracefully, any other value copied as written, Never included);
// otherwise the controller's --no-execute-taint-eviction-purge-mode:
// Directly (or its deprecated name Immediately) gives Directly, anything
// else Gracefully.
func ClusterPurgeMode(b *api.ResourceBinding, flag string) string {
	if f := b.Spec.Failover; f != nil && f.Cluster != nil {
		if f.Cluster.PurgeMode == "" {
			return api.PurgeModeGracefully
		}
		return f.Cluster.PurgeMode
	}
	if api.CanonicalPurgeMode(flag) == api.PurgeModeDirectly {
		return api.PurgeModeDirectly
	}
	return api.PurgeModeGracefully
}

// TaintManager is the taint manager's configuration: its controller flags,
// and the options of Decide that apply (WithGates, WithPreserveOptions).
type TaintManager struct {
	// Enabled is --enable-no-execute-taint-eviction (off in Karmada).
	Enabled bool
	// PurgeMode is --no-execute-taint-eviction-purge-mode (Gracefully).
	PurgeMode string
	Options   []Option
}

// ClusterRecheck is how soon the taint manager looks at a cluster with
// NoExecute taints again.
const ClusterRecheck = 10 * time.Second

// Enqueue is what a taint manager's reconcile of one cluster asks for.
type Enqueue struct {
	// Now are the bindings to evict from the cluster now.
	Now []*api.ResourceBinding
	// Later are the bindings to look at again after their toleration.
	Later map[*api.ResourceBinding]time.Duration
	// Requeue is when to reconcile the cluster again (0: not timed).
	Requeue time.Duration
}

// Reconcile is the taint manager's reconcile of cluster (nil when it does
// not exist) at now (fact 60): nothing when eviction is disabled or the
// cluster has no NoExecute taint; otherwise every binding whose
// spec.clusters names the cluster is enqueued now when its tolerations
// cannot be read or a taint is not tolerated, after the remaining
// toleration when all are tolerated with a deadline, and not at all when
// tolerated forever, and the cluster is looked at again after
// ClusterRecheck.
func (m TaintManager) Reconcile(cluster *api.Cluster, bindings []*api.ResourceBinding, now time.Time) Enqueue {
	var e Enqueue
	taints := NoExecuteTaints(cluster)
	if !m.Enabled || len(taints) == 0 {
		return e
	}
	for _, b := range bindings {
		if !targets(b, cluster.Name) {
			continue
		}
		tolerations, err := ClusterTolerations(b)
		d := TaintDecision{Verdict: EvictNow}
		if err == nil {
			d = DecideTaints(taints, tolerations, now)
		}
		switch d.Verdict {
		case EvictNow:
			e.Now = append(e.Now, b)
		case EvictLater:
			if e.Later == nil {
				e.Later = map[*api.ResourceBinding]time.Duration{}
			}
			e.Later[b] = d.After
		}
	}
	e.Requeue = ClusterRecheck
	return e
}

// Eviction is the outcome of one eviction pass over a (cluster, binding).
type Eviction struct {
	// Updated says the binding's spec was changed and must be written
	// (a full update).
	Updated bool
	// Task is the task written when Updated and a new task was appended.
	Task *api.GracefulEvictionTask
	// Retry is when to look at the binding again (0: not timed).
	Retry time.Duration
}

// Evict is the taint manager's eviction pass for the binding b on cluster
// at now (facts 62-65). Nothing happens when eviction is disabled, the
// cluster is gone or has no NoExecute taint, b is being deleted or no
// longer lists the cluster, or every taint is tolerated forever; a
// toleration with a deadline asks for a retry after it. To evict, the task
// is built (ClusterTask, with ClusterPurgeMode) and the cluster moved out
// of b.Spec (EvictCluster), which Evict modifies in place: the caller
// passes a copy it will write. Errors (ErrNoAppliedPlacement, the
// annotation's JSON error, a *ClusterError of state preservation) leave b
// as it was.
func (m TaintManager) Evict(cluster *api.Cluster, b *api.ResourceBinding, now time.Time) (Eviction, error) {
	var ev Eviction
	taints := NoExecuteTaints(cluster)
	if !m.Enabled || len(taints) == 0 || b.DeletionTimestamp != nil || !targets(b, cluster.Name) {
		return ev, nil
	}
	tolerations, err := ClusterTolerations(b)
	if err != nil {
		return ev, err
	}
	d := DecideTaints(taints, tolerations, now)
	switch d.Verdict {
	case Tolerated:
		return ev, nil
	case EvictLater:
		ev.Retry = d.After
		return ev, nil
	}
	cfg := newConfig(m.Options)
	task, err := ClusterTask(b, cluster.Name, ClusterPurgeMode(b, m.PurgeMode), cfg.gates, cfg.preserve...)
	if err != nil {
		return ev, err
	}
	removed, appended := EvictCluster(&b.Spec, task)
	ev.Updated = removed
	if appended {
		ev.Task = &b.Spec.GracefulEvictionTasks[len(b.Spec.GracefulEvictionTasks)-1]
	}
	return ev, nil
}

// targets reports whether b's spec.clusters names cluster.
func targets(b *api.ResourceBinding, cluster string) bool {
	for _, c := range b.Spec.Clusters {
		if c.Name == cluster {
			return true
		}
	}
	return false
}
