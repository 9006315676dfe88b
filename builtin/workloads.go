package builtin

import (
	"github.com/luainterp/luainterp/interpreter"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Deployment, ReplicaSet, StatefulSet and DaemonSet: reflected status with
// generation tracking, aggregation by sums, and health (docs/builtin.md §3.1-§3.4).

// The reflected statuses: generation fields first, then the kind's own
// status fields in their Kubernetes order (docs/builtin.md §2.9).
type (
	deploymentStatus struct {
		federatedGeneration
		appsv1.DeploymentStatus
	}
	replicaSetStatus struct {
		federatedGeneration
		appsv1.ReplicaSetStatus
	}
	statefulSetStatus struct {
		federatedGeneration
		appsv1.StatefulSetStatus
	}
	daemonSetStatus struct {
		federatedGeneration
		appsv1.DaemonSetStatus
	}
)

// reflectGenerated reflects the status of a generation-tracked kind: nil
// without a status, else the annotation is read, the status read into into
// (by read, or by a typed decode when read meets a value it cannot read
// plainly) and pick builds the reflected value from both.
func reflectGenerated[S any](obj *unstructured.Unstructured, into *S, read func(*direct, *S), pick func(federatedGeneration, *S) any) (*runtime.RawExtension, error) {
	status, found := obj.Object["status"]
	if !found {
		return nil, nil
	}
	generation, err := memberGeneration(obj)
	if err != nil {
		return nil, err
	}
	m, isMap := status.(map[string]any)
	d := newDirect(m)
	if read(&d, into); !isMap || !d.ok {
		*into = *new(S)
		if _, err := decodeStatus(obj, into); err != nil {
			return nil, err
		}
	}
	return rawJSON(pick(generation, into))
}

func reflectDeployment(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	raw, err := reflectGenerated(obj, &appsv1.DeploymentStatus{}, readDeploymentStatus, pickDeploymentStatus)
	if raw != nil && string(raw.Raw) == "{}" {
		return nil, err
	}
	return raw, err
}

func reflectReplicaSet(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return reflectGenerated(obj, &appsv1.ReplicaSetStatus{}, readReplicaSetStatus, pickReplicaSetStatus)
}

// reflectStatefulSet does not reflect observedGeneration (docs/builtin.md §5.1).
func reflectStatefulSet(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return reflectGenerated(obj, &appsv1.StatefulSetStatus{}, readStatefulSetStatus, pickStatefulSetStatus)
}

func reflectDaemonSet(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return reflectGenerated(obj, &appsv1.DaemonSetStatus{}, readDaemonSetStatus, pickDaemonSetStatus)
}

// The reflected fields of each kind.

func pickDeploymentStatus(g federatedGeneration, s *appsv1.DeploymentStatus) any {
	return deploymentStatus{g, appsv1.DeploymentStatus{
		ObservedGeneration: s.ObservedGeneration, Replicas: s.Replicas, UpdatedReplicas: s.UpdatedReplicas,
		ReadyReplicas: s.ReadyReplicas, AvailableReplicas: s.AvailableReplicas, UnavailableReplicas: s.UnavailableReplicas,
	}}
}

func pickReplicaSetStatus(g federatedGeneration, s *appsv1.ReplicaSetStatus) any {
	return replicaSetStatus{g, appsv1.ReplicaSetStatus{
		Replicas: s.Replicas, ReadyReplicas: s.ReadyReplicas, AvailableReplicas: s.AvailableReplicas,
		ObservedGeneration: s.ObservedGeneration,
	}}
}

func pickStatefulSetStatus(g federatedGeneration, s *appsv1.StatefulSetStatus) any {
	return statefulSetStatus{g, appsv1.StatefulSetStatus{
		Replicas: s.Replicas, ReadyReplicas: s.ReadyReplicas, CurrentReplicas: s.CurrentReplicas,
		UpdatedReplicas: s.UpdatedReplicas, AvailableReplicas: s.AvailableReplicas,
	}}
}

func pickDaemonSetStatus(g federatedGeneration, s *appsv1.DaemonSetStatus) any {
	return daemonSetStatus{g, appsv1.DaemonSetStatus{
		CurrentNumberScheduled: s.CurrentNumberScheduled, NumberMisscheduled: s.NumberMisscheduled,
		DesiredNumberScheduled: s.DesiredNumberScheduled, NumberReady: s.NumberReady,
		ObservedGeneration: s.ObservedGeneration, UpdatedNumberScheduled: s.UpdatedNumberScheduled,
		NumberAvailable: s.NumberAvailable, NumberUnavailable: s.NumberUnavailable,
	}}
}

// The workload aggregations patch their own fields into the template's
// status and leave the rest (conditions, collisionCount, ...) as it is.

var aggregateDeployment = statusAggregation[appsv1.Deployment, appsv1.DeploymentStatus]{
	status: func(d *appsv1.Deployment) *appsv1.DeploymentStatus { return &d.Status },
	fold: func(deploy *appsv1.Deployment, items []interpreter.AggregatedStatusItem) (appsv1.DeploymentStatus, error) {
		next := deploy.Status
		next.Replicas, next.ReadyReplicas, next.UpdatedReplicas, next.AvailableReplicas, next.UnavailableReplicas = 0, 0, 0, 0, 0
		var count generationCount
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *deploymentStatus) {
			next.Replicas += member.Replicas
			next.ReadyReplicas += member.ReadyReplicas
			next.UpdatedReplicas += member.UpdatedReplicas
			next.AvailableReplicas += member.AvailableReplicas
			next.UnavailableReplicas += member.UnavailableReplicas
			count.observe(member.federatedGeneration, member.ObservedGeneration, deploy.Generation)
		})
		next.ObservedGeneration = count.result(len(items), deploy.Generation, deploy.Status.ObservedGeneration)
		return next, err
	},
	counters: &deploymentStatusFields,
}

var aggregateReplicaSet = statusAggregation[appsv1.ReplicaSet, appsv1.ReplicaSetStatus]{
	status: func(rs *appsv1.ReplicaSet) *appsv1.ReplicaSetStatus { return &rs.Status },
	fold: func(rs *appsv1.ReplicaSet, items []interpreter.AggregatedStatusItem) (appsv1.ReplicaSetStatus, error) {
		next := rs.Status
		next.Replicas, next.ReadyReplicas, next.AvailableReplicas = 0, 0, 0
		var count generationCount
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *replicaSetStatus) {
			next.Replicas += member.Replicas
			next.ReadyReplicas += member.ReadyReplicas
			next.AvailableReplicas += member.AvailableReplicas
			count.observe(member.federatedGeneration, member.ObservedGeneration, rs.Generation)
		})
		next.ObservedGeneration = count.result(len(items), rs.Generation, rs.Status.ObservedGeneration)
		return next, err
	},
	counters: &replicaSetStatusFields,
}

// aggregateStatefulSet compares each member's resourceTemplateGeneration
// with the member's own generation, not the template's (docs/builtin.md §5.1).
var aggregateStatefulSet = statusAggregation[appsv1.StatefulSet, appsv1.StatefulSetStatus]{
	status: func(sts *appsv1.StatefulSet) *appsv1.StatefulSetStatus { return &sts.Status },
	fold: func(sts *appsv1.StatefulSet, items []interpreter.AggregatedStatusItem) (appsv1.StatefulSetStatus, error) {
		next := sts.Status
		next.AvailableReplicas, next.CurrentReplicas, next.ReadyReplicas, next.Replicas, next.UpdatedReplicas = 0, 0, 0, 0, 0
		var count generationCount
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *statefulSetStatus) {
			next.AvailableReplicas += member.AvailableReplicas
			next.CurrentReplicas += member.CurrentReplicas
			next.ReadyReplicas += member.ReadyReplicas
			next.Replicas += member.Replicas
			next.UpdatedReplicas += member.UpdatedReplicas
			count.observe(member.federatedGeneration, member.ObservedGeneration, member.Generation)
		})
		next.ObservedGeneration = count.result(len(items), sts.Generation, sts.Status.ObservedGeneration)
		return next, err
	},
	counters: &statefulSetStatusFields,
}

// aggregateDaemonSet compares the whole old status with one holding only
// the eight aggregated fields, so a status with conditions is always
// rewritten (docs/builtin.md §3.4); collisionCount and conditions are kept.
var aggregateDaemonSet = statusAggregation[appsv1.DaemonSet, appsv1.DaemonSetStatus]{
	status: func(ds *appsv1.DaemonSet) *appsv1.DaemonSetStatus { return &ds.Status },
	fold: func(ds *appsv1.DaemonSet, items []interpreter.AggregatedStatusItem) (appsv1.DaemonSetStatus, error) {
		var next appsv1.DaemonSetStatus
		var count generationCount
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *daemonSetStatus) {
			next.CurrentNumberScheduled += member.CurrentNumberScheduled
			next.DesiredNumberScheduled += member.DesiredNumberScheduled
			next.NumberAvailable += member.NumberAvailable
			next.NumberMisscheduled += member.NumberMisscheduled
			next.NumberReady += member.NumberReady
			next.UpdatedNumberScheduled += member.UpdatedNumberScheduled
			next.NumberUnavailable += member.NumberUnavailable
			count.observe(member.federatedGeneration, member.ObservedGeneration, ds.Generation)
		})
		next.ObservedGeneration = count.result(len(items), ds.Generation, ds.Status.ObservedGeneration)
		return next, err
	},
	apply: func(old *appsv1.DaemonSetStatus, next appsv1.DaemonSetStatus) {
		next.CollisionCount, next.Conditions = old.CollisionCount, old.Conditions
		*old = next
	},
	counters:  &daemonSetStatusFields,
	rewritten: []string{"collisionCount", "conditions"},
}

func deploymentHealthy(deploy *appsv1.Deployment) bool {
	s := deploy.Status
	return s.ObservedGeneration == deploy.Generation &&
		(deploy.Spec.Replicas == nil || s.UpdatedReplicas >= *deploy.Spec.Replicas) &&
		s.AvailableReplicas >= s.UpdatedReplicas
}

func replicaSetHealthy(rs *appsv1.ReplicaSet) bool {
	s := rs.Status
	return s.ObservedGeneration == rs.Generation &&
		(rs.Spec.Replicas == nil || s.AvailableReplicas >= *rs.Spec.Replicas)
}

func statefulSetHealthy(sts *appsv1.StatefulSet) bool {
	s := sts.Status
	return s.ObservedGeneration == sts.Generation &&
		(sts.Spec.Replicas == nil || s.UpdatedReplicas >= *sts.Spec.Replicas) &&
		s.AvailableReplicas >= s.UpdatedReplicas
}

func daemonSetHealthy(ds *appsv1.DaemonSet) bool {
	s := ds.Status
	return s.ObservedGeneration == ds.Generation &&
		s.UpdatedNumberScheduled >= s.DesiredNumberScheduled &&
		s.NumberAvailable >= s.UpdatedNumberScheduled
}
