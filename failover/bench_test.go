package failover_test

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// BenchmarkDecide is one pass over a binding of 100 clusters, all
// Unhealthy: waiting (every cluster remembered, none due), and evicting
// every cluster with a preserved state of two rules.
func BenchmarkDecide(b *testing.B) {
	var clusters []string
	memory := failover.Memory{}
	for i := range 100 {
		name := fmt.Sprintf("member%03d", i)
		clusters = append(clusters, name, "Unhealthy")
		memory[name] = t0
	}
	binding := newBinding(ptr.To[int32](300), api.PurgeModeDirectly, clusters...)
	binding.Spec.Failover.Application.StatePreservation = &api.StatePreservation{Rules: []api.StatePreservationRule{
		{AliasLabelName: "id", JSONPath: "{.jobId}"}, {AliasLabelName: "replicas", JSONPath: "{.replicas}"},
	}}
	gates := failover.WithGates(failover.Gates{StatefulFailoverInjection: true})
	for _, bc := range []struct {
		name string
		now  time.Time
	}{{"waiting", t0.Add(time.Minute)}, {"evict-all-stateful", t0.Add(time.Hour)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := failover.Decide(bc.now, binding, memory, gates); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
