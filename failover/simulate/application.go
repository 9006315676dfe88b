package simulate

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/interpreter"
)

// ApplicationScenario is scenario.yaml of an application-failover case.
type ApplicationScenario struct {
	FeatureGates        map[string]bool   `json:"featureGates,omitempty"`
	InterpretHealthHook *bool             `json:"interpretHealthHook,omitempty"`
	Kind                string            `json:"kind,omitempty"`
	Steps               []ApplicationStep `json:"steps"`
}

// Step moves the clock, optionally replaces the binding's aggregatedStatus
// and spec.clusters (what the status controller and the scheduler write),
// then runs one pass.
type Step struct {
	AfterSeconds     float64                             `json:"afterSeconds"`
	AggregatedStatus *[]interpreter.AggregatedStatusItem `json:"aggregatedStatus,omitempty"`
	SetClusters      *[]api.TargetCluster                `json:"setClusters,omitempty"`
}

// ApplicationStep is a step of an application-failover case.
type ApplicationStep struct{ Step }

func (s *Step) apply(b *api.ResourceBinding) {
	if s.AggregatedStatus != nil {
		b.Status.AggregatedStatus = *s.AggregatedStatus
	}
	if s.SetClusters != nil {
		b.Spec.Clusters = *s.SetClusters
	}
}

// ApplicationResult is what one pass did: the entries of expected.yaml.
type ApplicationResult struct {
	RequeueAfterSeconds   int64                      `json:"requeueAfterSeconds"`
	Error                 string                     `json:"error,omitempty"`
	Updated               bool                       `json:"updated"`
	Clusters              []api.TargetCluster        `json:"clusters"`
	GracefulEvictionTasks []api.GracefulEvictionTask `json:"gracefulEvictionTasks"`
	UnhealthySinceSeconds map[string]int64           `json:"unhealthySinceSeconds"`
	// Warnings are luainterp's, not in Karmada's cases.
	Warnings []string `json:"warnings,omitempty"`
}

// Gates reads the featureGates of a scenario over Karmada's defaults.
func Gates(m map[string]bool) failover.Gates {
	g := failover.DefaultGates()
	if v, ok := m["GracefulEviction"]; ok {
		g.GracefulEviction = v
	}
	if v, ok := m["StatefulFailoverInjection"]; ok {
		g.StatefulFailoverInjection = v
	}
	return g
}

// Application runs the application failover passes of s over b (not
// modified), holding the memory between passes as a controller does.
func Application(b *api.ResourceBinding, s ApplicationScenario, opts ...failover.Option) []ApplicationResult {
	b = clone(b)
	hook := s.InterpretHealthHook == nil || *s.InterpretHealthHook
	opts = append([]failover.Option{
		failover.WithGates(Gates(s.FeatureGates)),
		failover.WithHealthHook(func(schema.GroupVersionKind) bool { return hook }),
	}, opts...)
	var (
		c       clock
		memory  failover.Memory
		results []ApplicationResult
	)
	for _, step := range s.Steps {
		now := c.advance(step.AfterSeconds)
		step.apply(b)
		d, err := failover.Decide(now, b, memory, opts...)
		memory = d.Memory
		r := ApplicationResult{Updated: d.Update, Warnings: d.Warnings, UnhealthySinceSeconds: map[string]int64{}}
		if err != nil {
			r.Error = err.Error()
		} else {
			r.RequeueAfterSeconds = requeueSeconds(d.RequeueAfter)
			if d.Update {
				b.Spec.Clusters, b.Spec.GracefulEvictionTasks = d.Clusters, d.Tasks
			}
		}
		for cluster, first := range memory {
			r.UnhealthySinceSeconds[cluster] = ageSeconds(now, first)
		}
		r.Clusters = slices.Clone(b.Spec.Clusters)
		r.GracefulEvictionTasks = slices.Clone(b.Spec.GracefulEvictionTasks)
		results = append(results, r)
	}
	return results
}
