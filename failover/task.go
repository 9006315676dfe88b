package failover

import (
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

// ApplicationTask builds the task application failover writes when it
// evicts cluster from b (spec/failover.md fact 25): the policy's purge mode
// as written, reason ApplicationFailure, the producer of b's kind, a grace
// period for Gracefully (needs the GracefulEviction gate), suppressDeletion
// for Never, and, with StatefulFailoverInjection on and rules, the
// preserved labels from cluster's status with clustersBefore. Replicas are
// left to EvictCluster. b.Spec.Failover.Application must be set.
//
// An error is a *ClusterError; the task must then not be written, nor any
// other of the same pass.
func ApplicationTask(b *api.ResourceBinding, cluster string, clustersBefore []string, gates Gates, opts ...preserve.Option) (api.GracefulEvictionTask, error) {
	app := b.Spec.Failover.Application
	task := api.GracefulEvictionTask{
		FromCluster: cluster,
		PurgeMode:   app.PurgeMode,
		Reason:      api.EvictionReasonApplicationFailure,
		Producer:    api.EvictionProducerRBApplicationFailover,
	}
	if b.IsCluster() {
		task.Producer = api.EvictionProducerCRBApplicationFailover
	}
	labels, err := preservedState(b, cluster, app.StatePreservation, gates, opts)
	if err != nil {
		return task, err
	}
	if labels != nil {
		task.PreservedLabelState = labels
		task.ClustersBeforeFailover = clustersBefore
	}
	switch api.CanonicalPurgeMode(app.PurgeMode) {
	case api.PurgeModeGracefully:
		if !gates.GracefulEviction {
			return task, &ClusterError{Cluster: cluster, Err: &gateOff{mode: app.PurgeMode}}
		}
		task.GracePeriodSeconds = app.GracePeriodSeconds
	case api.PurgeModeNever:
		suppress := true
		task.SuppressDeletion = &suppress
	}
	return task, nil
}

// ClusterTask builds the task cluster failover (the taint manager) writes
// when it evicts cluster from b with purgeMode (fact 64): reason
// TaintUntolerated, producer TaintManager, and the preserved labels of
// failover.cluster's rules with StatefulFailoverInjection on; never a grace
// period, suppressDeletion or clustersBeforeFailover. Errors are those of
// ApplicationTask's state preservation.
func ClusterTask(b *api.ResourceBinding, cluster, purgeMode string, gates Gates, opts ...preserve.Option) (api.GracefulEvictionTask, error) {
	task := api.GracefulEvictionTask{
		FromCluster: cluster,
		PurgeMode:   purgeMode,
		Reason:      api.EvictionReasonTaintUntolerated,
		Producer:    api.EvictionProducerTaintManager,
	}
	var sp *api.StatePreservation
	if f := b.Spec.Failover; f != nil && f.Cluster != nil {
		sp = f.Cluster.StatePreservation
	}
	labels, err := preservedState(b, cluster, sp, gates, opts)
	task.PreservedLabelState = labels
	return task, err
}

// preservedState builds the labels to preserve from the first
// aggregatedStatus item of cluster; nil without the gate or rules.
func preservedState(b *api.ResourceBinding, cluster string, sp *api.StatePreservation, gates Gates, opts []preserve.Option) (map[string]string, error) {
	if !gates.StatefulFailoverInjection || sp == nil || len(sp.Rules) == 0 {
		return nil, nil
	}
	for _, item := range b.Status.AggregatedStatus {
		if item.ClusterName != cluster {
			continue
		}
		if item.Status == nil || len(item.Status.Raw) == 0 {
			break
		}
		labels, err := preserve.Build(sp.Rules, item.Status.Raw, opts...)
		if err != nil {
			return nil, &ClusterError{Cluster: cluster, Err: err}
		}
		return labels, nil
	}
	return nil, &ClusterError{Cluster: cluster, Err: &statusNotCollected{cluster: cluster}}
}
