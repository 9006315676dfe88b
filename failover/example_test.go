package failover_test

import (
	"fmt"
	"time"

	"k8s.io/utils/ptr"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// A controller keeps the Memory between passes, writes Clusters and Tasks
// when Update is set, and comes back after RequeueAfter.
func ExampleDecide() {
	b := newBinding(ptr.To[int32](60), api.PurgeModeGracefully, "member1", "Unhealthy", "member2", "Healthy")
	d, _ := failover.Decide(t0, b, nil)
	fmt.Println(d.Update, d.RequeueAfter, len(d.Memory))

	d, _ = failover.Decide(t0.Add(61*time.Second), b, d.Memory)
	fmt.Println(d.Update, d.Evicted, d.Clusters, d.Tasks[0].PurgeMode, *d.Tasks[0].GracePeriodSeconds)
	// Output:
	// false 1m0s 1
	// true [member1] [{member2 2}] Gracefully 600
}

// A new task is stamped and kept; once the new cluster is Healthy and the
// scheduler has seen the binding, it is dropped.
func ExampleAssessEvictions() {
	b := newBinding(ptr.To[int32](60), api.PurgeModeGracefully, "member2", "Healthy")
	b.Spec.GracefulEvictionTasks = []api.GracefulEvictionTask{{FromCluster: "member1", PurgeMode: api.PurgeModeGracefully, GracePeriodSeconds: ptr.To[int32](600)}}
	a := failover.AssessEvictions(t0, b)
	fmt.Println(len(a.Kept), a.Changed, a.RequeueAfter)

	b.Spec.GracefulEvictionTasks = a.Kept
	a = failover.AssessEvictions(t0.Add(time.Minute), b)
	fmt.Println(len(a.Kept), a.Dropped[0].FromCluster, failover.EvictSucceededMessage(a.Dropped[0].FromCluster))
	// Output:
	// 1 true 10m0s
	// 0 member1 Evict from cluster member1 succeed.
}
