package controller_test

import (
	"fmt"
	"regexp"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/luainterp/luainterp/kube/controller"
)

// The metrics a controller exports, registered with the program's registry.
func ExampleNewMetrics() {
	m := controller.NewMetrics()
	prometheus.NewRegistry().MustRegister(m)
	descs := make(chan *prometheus.Desc, 64)
	m.Describe(descs)
	close(descs)
	name := regexp.MustCompile(`fqName: "([^"]+)"`)
	for d := range descs {
		fmt.Println(name.FindStringSubmatch(d.String())[1])
	}
	// Output:
	// luainterp_controller_reconciles_total
	// luainterp_controller_works_written_total
	// luainterp_controller_works_deleted_total
	// luainterp_controller_write_conflicts_total
	// luainterp_controller_writes_per_reconcile
	// luainterp_controller_cluster_failures_total
	// luainterp_controller_queue_depth
	// luainterp_controller_fenced_writes_total
	// luainterp_controller_refusals_total
	// luainterp_controller_failover_evictions_total
	// luainterp_controller_failover_tasks_pending
	// luainterp_controller_failover_waiting
	// luainterp_controller_failover_failures_total
	// luainterp_controller_failover_toleration_resets_total
	// luainterp_controller_status_passes_total
	// luainterp_controller_binding_status_writes_total
	// luainterp_controller_template_status_writes_total
	// luainterp_controller_status_queue_depth
}

// Keys name bindings in the work queue and in logs.
func ExampleKey() {
	fmt.Println(controller.Key{Namespace: "shop", Name: "storefront-deployment"})
	fmt.Println(controller.Key{Cluster: true, Name: "metrics-reader-clusterrole"})
	// Output:
	// ResourceBinding shop/storefront-deployment
	// ClusterResourceBinding metrics-reader-clusterrole
}
