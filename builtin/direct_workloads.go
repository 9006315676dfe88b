package builtin

import appsv1 "k8s.io/api/apps/v1"

// The fields health and reflection of the workloads read, read directly
// (direct.go): for health, the generation, spec.replicas and the status
// counters the rule compares; for reflection, the status counters
// reflected.

func readDeploymentHealth(d *direct, deploy *appsv1.Deployment) {
	deploy.Generation = d.int64("metadata", "generation")
	deploy.Spec.Replicas = d.optionalInt32("spec", "replicas")
	deploy.Status.ObservedGeneration = d.int64("status", "observedGeneration")
	deploy.Status.UpdatedReplicas = d.int32("status", "updatedReplicas")
	deploy.Status.AvailableReplicas = d.int32("status", "availableReplicas")
}

func readReplicaSetHealth(d *direct, rs *appsv1.ReplicaSet) {
	rs.Generation = d.int64("metadata", "generation")
	rs.Spec.Replicas = d.optionalInt32("spec", "replicas")
	rs.Status.ObservedGeneration = d.int64("status", "observedGeneration")
	rs.Status.AvailableReplicas = d.int32("status", "availableReplicas")
}

func readStatefulSetHealth(d *direct, sts *appsv1.StatefulSet) {
	sts.Generation = d.int64("metadata", "generation")
	sts.Spec.Replicas = d.optionalInt32("spec", "replicas")
	sts.Status.ObservedGeneration = d.int64("status", "observedGeneration")
	sts.Status.UpdatedReplicas = d.int32("status", "updatedReplicas")
	sts.Status.AvailableReplicas = d.int32("status", "availableReplicas")
}

func readDaemonSetHealth(d *direct, ds *appsv1.DaemonSet) {
	ds.Generation = d.int64("metadata", "generation")
	ds.Status.ObservedGeneration = d.int64("status", "observedGeneration")
	ds.Status.UpdatedNumberScheduled = d.int32("status", "updatedNumberScheduled")
	ds.Status.DesiredNumberScheduled = d.int32("status", "desiredNumberScheduled")
	ds.Status.NumberAvailable = d.int32("status", "numberAvailable")
}

func readDeploymentStatus(d *direct, s *appsv1.DeploymentStatus) {
	s.ObservedGeneration = d.int64("observedGeneration")
	s.Replicas = d.int32("replicas")
	s.UpdatedReplicas = d.int32("updatedReplicas")
	s.ReadyReplicas = d.int32("readyReplicas")
	s.AvailableReplicas = d.int32("availableReplicas")
	s.UnavailableReplicas = d.int32("unavailableReplicas")
}

func readReplicaSetStatus(d *direct, s *appsv1.ReplicaSetStatus) {
	s.Replicas = d.int32("replicas")
	s.ReadyReplicas = d.int32("readyReplicas")
	s.AvailableReplicas = d.int32("availableReplicas")
	s.ObservedGeneration = d.int64("observedGeneration")
}

func readStatefulSetStatus(d *direct, s *appsv1.StatefulSetStatus) {
	s.Replicas = d.int32("replicas")
	s.ReadyReplicas = d.int32("readyReplicas")
	s.CurrentReplicas = d.int32("currentReplicas")
	s.UpdatedReplicas = d.int32("updatedReplicas")
	s.AvailableReplicas = d.int32("availableReplicas")
}

func readDaemonSetStatus(d *direct, s *appsv1.DaemonSetStatus) {
	s.CurrentNumberScheduled = d.int32("currentNumberScheduled")
	s.NumberMisscheduled = d.int32("numberMisscheduled")
	s.DesiredNumberScheduled = d.int32("desiredNumberScheduled")
	s.NumberReady = d.int32("numberReady")
	s.ObservedGeneration = d.int64("observedGeneration")
	s.UpdatedNumberScheduled = d.int32("updatedNumberScheduled")
	s.NumberAvailable = d.int32("numberAvailable")
	s.NumberUnavailable = d.int32("numberUnavailable")
}

// The fields the aggregations take from a member's reflected status
// without encoding/json (flatstatus.go): the generation fields and the
// counters each fold reads.

func (g *federatedGeneration) setField(key []byte, n int64) bool {
	switch string(key) {
	case "generation":
		g.Generation = n
	case "resourceTemplateGeneration":
		g.ResourceTemplateGeneration = n
	default:
		return false
	}
	return true
}

func (s *deploymentStatus) setField(key []byte, n int64) bool {
	switch string(key) {
	case "observedGeneration":
		s.ObservedGeneration = n
		return true
	case "replicas":
		return setInt32(&s.Replicas, n)
	case "updatedReplicas":
		return setInt32(&s.UpdatedReplicas, n)
	case "readyReplicas":
		return setInt32(&s.ReadyReplicas, n)
	case "availableReplicas":
		return setInt32(&s.AvailableReplicas, n)
	case "unavailableReplicas":
		return setInt32(&s.UnavailableReplicas, n)
	}
	return s.federatedGeneration.setField(key, n)
}

func (s *replicaSetStatus) setField(key []byte, n int64) bool {
	switch string(key) {
	case "observedGeneration":
		s.ObservedGeneration = n
		return true
	case "replicas":
		return setInt32(&s.Replicas, n)
	case "readyReplicas":
		return setInt32(&s.ReadyReplicas, n)
	case "availableReplicas":
		return setInt32(&s.AvailableReplicas, n)
	}
	return s.federatedGeneration.setField(key, n)
}

func (s *statefulSetStatus) setField(key []byte, n int64) bool {
	switch string(key) {
	case "observedGeneration":
		s.ObservedGeneration = n
		return true
	case "replicas":
		return setInt32(&s.Replicas, n)
	case "readyReplicas":
		return setInt32(&s.ReadyReplicas, n)
	case "currentReplicas":
		return setInt32(&s.CurrentReplicas, n)
	case "updatedReplicas":
		return setInt32(&s.UpdatedReplicas, n)
	case "availableReplicas":
		return setInt32(&s.AvailableReplicas, n)
	}
	return s.federatedGeneration.setField(key, n)
}

func (s *daemonSetStatus) setField(key []byte, n int64) bool {
	switch string(key) {
	case "observedGeneration":
		s.ObservedGeneration = n
		return true
	case "currentNumberScheduled":
		return setInt32(&s.CurrentNumberScheduled, n)
	case "numberMisscheduled":
		return setInt32(&s.NumberMisscheduled, n)
	case "desiredNumberScheduled":
		return setInt32(&s.DesiredNumberScheduled, n)
	case "numberReady":
		return setInt32(&s.NumberReady, n)
	case "updatedNumberScheduled":
		return setInt32(&s.UpdatedNumberScheduled, n)
	case "numberAvailable":
		return setInt32(&s.NumberAvailable, n)
	case "numberUnavailable":
		return setInt32(&s.NumberUnavailable, n)
	}
	return s.federatedGeneration.setField(key, n)
}
