package failover

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/interpreter"
)

// Assessment is the outcome of one graceful eviction pass.
type Assessment struct {
	// Kept are the tasks to keep, in order, new ones stamped with the
	// pass's instant; Dropped those to remove, each worth an
	// EvictWorkloadFromClusterSucceed event (Events).
	Kept, Dropped []api.GracefulEvictionTask
	// Changed says to write Kept as spec.gracefulEvictionTasks (a merge
	// patch with optimistic locking; no task left removes the field).
	Changed bool
	// RequeueAfter is when the first kept task without suppressDeletion
	// reaches its timeout; 0 is not before the next change.
	RequeueAfter time.Duration
}

// AssessEvictions runs one pass of the graceful eviction controller over
// b's tasks at now (fact 40). A task is, in this order: stamped and kept
// when it has no creationTimestamp; kept when suppressDeletion is true and
// dropped when it is false; dropped past its grace period (or the
// controller's timeout, WithEvictionTimeout, without one); dropped when the
// scheduler has seen the binding's generation and every spec.clusters
// entry is Healthy; kept otherwise. The purge mode, the reason and the
// evicted cluster's health play no part. A binding being deleted is left
// alone.
func AssessEvictions(now time.Time, b *api.ResourceBinding, opts ...Option) Assessment {
	cfg := newConfig(opts)
	tasks := b.Spec.GracefulEvictionTasks
	if b.DeletionTimestamp != nil {
		return Assessment{Kept: tasks}
	}
	var a Assessment
	settled := scheduledAndHealthy(b)
	wait := time.Duration(-1)
	for _, task := range tasks {
		timeout := cfg.timeout
		if task.GracePeriodSeconds != nil {
			timeout = time.Duration(*task.GracePeriodSeconds) * time.Second
		}
		if task.CreationTimestamp == nil {
			stamp := metav1.NewTime(now)
			task.CreationTimestamp = &stamp
			a.Changed = true
		} else if drop(now, task, timeout, settled) {
			a.Dropped = append(a.Dropped, task)
			a.Changed = true
			continue
		}
		a.Kept = append(a.Kept, task)
		if task.SuppressDeletion == nil {
			left := task.CreationTimestamp.Add(timeout).Sub(now)
			if wait < 0 || left < wait {
				wait = left
			}
		}
	}
	if wait > 0 {
		a.RequeueAfter = wait
	}
	return a
}

func drop(now time.Time, task api.GracefulEvictionTask, timeout time.Duration, settled bool) bool {
	if task.SuppressDeletion != nil {
		return !*task.SuppressDeletion
	}
	return now.After(task.CreationTimestamp.Add(timeout)) || settled
}

// scheduledAndHealthy reports whether the scheduler has seen the binding's
// generation and the first aggregatedStatus item of every spec.clusters
// entry is Healthy (true for no clusters at all).
func scheduledAndHealthy(b *api.ResourceBinding) bool {
	if b.Status.SchedulerObservedGeneration != b.Generation {
		return false
	}
	for _, c := range b.Spec.Clusters {
		health := interpreter.ResourceHealth("")
		for _, item := range b.Status.AggregatedStatus {
			if item.ClusterName == c.Name {
				health = item.Health
				break
			}
		}
		if health != interpreter.ResourceHealthy {
			return false
		}
	}
	return true
}
