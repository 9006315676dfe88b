package simulate

import (
	"encoding/json"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// EvictionScenario is scenario.yaml of a graceful-eviction case.
type EvictionScenario struct {
	GracefulEvictionTimeoutSeconds *float64 `json:"gracefulEvictionTimeoutSeconds,omitempty"`
	// TaskCreationAgeSeconds is, per task, how old its creationTimestamp
	// is at the start; null for none.
	TaskCreationAgeSeconds []*float64     `json:"taskCreationAgeSeconds,omitempty"`
	BindingBeingDeleted    bool           `json:"bindingBeingDeleted,omitempty"`
	Kind                   string         `json:"kind,omitempty"`
	Steps                  []EvictionStep `json:"steps"`
}

// EvictionStep moves the clock, optionally replaces what other controllers
// and users write, then runs one pass.
type EvictionStep struct {
	Step
	SetSchedulerObservedGeneration *int64 `json:"setSchedulerObservedGeneration,omitempty"`
	SetSuppressDeletionOnAllTasks  *bool  `json:"setSuppressDeletionOnAllTasks,omitempty"`
}

// EvictionResult is what one pass did: the entries of expected.yaml. Tasks
// show creationAgeSeconds instead of creationTimestamp.
type EvictionResult struct {
	RequeueAfterSeconds   int64            `json:"requeueAfterSeconds"`
	Patched               bool             `json:"patched"`
	GracefulEvictionTasks []map[string]any `json:"gracefulEvictionTasks"`
	Events                []string         `json:"events"`
}

// Evictions runs the graceful eviction passes of s over b (not modified).
func Evictions(b *api.ResourceBinding, s EvictionScenario, opts ...failover.Option) []EvictionResult {
	b = clone(b)
	if s.GracefulEvictionTimeoutSeconds != nil {
		opts = append([]failover.Option{failover.WithEvictionTimeout(seconds2duration(*s.GracefulEvictionTimeoutSeconds))}, opts...)
	}
	for i, age := range s.TaskCreationAgeSeconds {
		if age != nil && i < len(b.Spec.GracefulEvictionTasks) {
			stamp := metav1.NewTime(epoch.Add(-seconds2duration(*age)))
			b.Spec.GracefulEvictionTasks[i].CreationTimestamp = &stamp
		}
	}
	if s.BindingBeingDeleted {
		deleted := metav1.NewTime(epoch)
		b.DeletionTimestamp = &deleted
	}
	var (
		c       clock
		results []EvictionResult
	)
	for _, step := range s.Steps {
		now := c.advance(step.AfterSeconds)
		step.apply(b)
		if step.SetSchedulerObservedGeneration != nil {
			b.Status.SchedulerObservedGeneration = *step.SetSchedulerObservedGeneration
		}
		if v := step.SetSuppressDeletionOnAllTasks; v != nil {
			for i := range b.Spec.GracefulEvictionTasks {
				suppress := *v
				b.Spec.GracefulEvictionTasks[i].SuppressDeletion = &suppress
			}
		}
		a := failover.AssessEvictions(now, b, opts...)
		if a.Changed {
			b.Spec.GracefulEvictionTasks = a.Kept
		}
		r := EvictionResult{RequeueAfterSeconds: requeueSeconds(a.RequeueAfter), Patched: a.Changed}
		for _, task := range a.Dropped {
			event := "Normal " + failover.EventEvictSucceeded + " " + failover.EvictSucceededMessage(task.FromCluster)
			r.Events = append(r.Events, event, event) // on the binding and on the template
		}
		for _, task := range b.Spec.GracefulEvictionTasks {
			r.GracefulEvictionTasks = append(r.GracefulEvictionTasks, ageTask(now, task))
		}
		results = append(results, r)
	}
	return results
}

// ageTask shows a task with creationAgeSeconds in place of its
// creationTimestamp.
func ageTask(now time.Time, task api.GracefulEvictionTask) map[string]any {
	stamp := task.CreationTimestamp
	task.CreationTimestamp = nil
	data, _ := json.Marshal(task)
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	if stamp != nil {
		m["creationAgeSeconds"] = ageSeconds(now, stamp.Time)
	}
	return m
}
