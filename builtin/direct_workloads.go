package builtin

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
)

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

// The whole-number fields of each status, stated once for both readers:
// reflection reads them from the member's object (direct.go), and the
// aggregations take them from a member's reflected status without
// encoding/json (flatstatus.go).
var (
	deploymentStatusFields = statusFields[appsv1.DeploymentStatus]{
		observedGeneration: func(s *appsv1.DeploymentStatus) *int64 { return &s.ObservedGeneration },
		counters: []counter[appsv1.DeploymentStatus]{
			{"replicas", func(s *appsv1.DeploymentStatus) *int32 { return &s.Replicas }},
			{"updatedReplicas", func(s *appsv1.DeploymentStatus) *int32 { return &s.UpdatedReplicas }},
			{"readyReplicas", func(s *appsv1.DeploymentStatus) *int32 { return &s.ReadyReplicas }},
			{"availableReplicas", func(s *appsv1.DeploymentStatus) *int32 { return &s.AvailableReplicas }},
			{"unavailableReplicas", func(s *appsv1.DeploymentStatus) *int32 { return &s.UnavailableReplicas }},
		},
	}
	replicaSetStatusFields = statusFields[appsv1.ReplicaSetStatus]{
		observedGeneration: func(s *appsv1.ReplicaSetStatus) *int64 { return &s.ObservedGeneration },
		counters: []counter[appsv1.ReplicaSetStatus]{
			{"replicas", func(s *appsv1.ReplicaSetStatus) *int32 { return &s.Replicas }},
			{"readyReplicas", func(s *appsv1.ReplicaSetStatus) *int32 { return &s.ReadyReplicas }},
			{"availableReplicas", func(s *appsv1.ReplicaSetStatus) *int32 { return &s.AvailableReplicas }},
		},
	}
	statefulSetStatusFields = statusFields[appsv1.StatefulSetStatus]{
		observedGeneration: func(s *appsv1.StatefulSetStatus) *int64 { return &s.ObservedGeneration },
		counters: []counter[appsv1.StatefulSetStatus]{
			{"replicas", func(s *appsv1.StatefulSetStatus) *int32 { return &s.Replicas }},
			{"readyReplicas", func(s *appsv1.StatefulSetStatus) *int32 { return &s.ReadyReplicas }},
			{"currentReplicas", func(s *appsv1.StatefulSetStatus) *int32 { return &s.CurrentReplicas }},
			{"updatedReplicas", func(s *appsv1.StatefulSetStatus) *int32 { return &s.UpdatedReplicas }},
			{"availableReplicas", func(s *appsv1.StatefulSetStatus) *int32 { return &s.AvailableReplicas }},
		},
	}
	daemonSetStatusFields = statusFields[appsv1.DaemonSetStatus]{
		observedGeneration: func(s *appsv1.DaemonSetStatus) *int64 { return &s.ObservedGeneration },
		counters: []counter[appsv1.DaemonSetStatus]{
			{"currentNumberScheduled", func(s *appsv1.DaemonSetStatus) *int32 { return &s.CurrentNumberScheduled }},
			{"numberMisscheduled", func(s *appsv1.DaemonSetStatus) *int32 { return &s.NumberMisscheduled }},
			{"desiredNumberScheduled", func(s *appsv1.DaemonSetStatus) *int32 { return &s.DesiredNumberScheduled }},
			{"numberReady", func(s *appsv1.DaemonSetStatus) *int32 { return &s.NumberReady }},
			{"updatedNumberScheduled", func(s *appsv1.DaemonSetStatus) *int32 { return &s.UpdatedNumberScheduled }},
			{"numberAvailable", func(s *appsv1.DaemonSetStatus) *int32 { return &s.NumberAvailable }},
			{"numberUnavailable", func(s *appsv1.DaemonSetStatus) *int32 { return &s.NumberUnavailable }},
		},
	}

	readDeploymentStatus  = deploymentStatusFields.read
	readReplicaSetStatus  = replicaSetStatusFields.read
	readStatefulSetStatus = statefulSetStatusFields.read
	readDaemonSetStatus   = daemonSetStatusFields.read
)

// statusFields are a workload status's observedGeneration and its int32
// counters, by JSON name.
type statusFields[S any] struct {
	observedGeneration func(*S) *int64
	counters           []counter[S]
}

// counter is an int32 field of a status S.
type counter[S any] struct {
	name  string
	field func(*S) *int32
}

// read fills s's fields from the status of the object d reads.
func (f statusFields[S]) read(d *direct, s *S) {
	*f.observedGeneration(s) = d.int64("observedGeneration")
	for _, c := range f.counters {
		*c.field(s) = d.int32(c.name)
	}
}

// equal reports whether a and b hold the same fields.
func (f statusFields[S]) equal(a, b *S) bool {
	if *f.observedGeneration(a) != *f.observedGeneration(b) {
		return false
	}
	for _, c := range f.counters {
		if *c.field(a) != *c.field(b) {
			return false
		}
	}
	return true
}

// write writes s's fields into status, an S as a typed re-encode gives it:
// a zero is left out where the field is omitempty.
func (f statusFields[S]) write(status map[string]any, s *S) {
	fields := formOf(reflect.TypeFor[S]()).fields.byName
	put := func(name string, n int64) {
		if n == 0 && fields[name].omitempty {
			delete(status, name)
		} else {
			status[name] = n
		}
	}
	put("observedGeneration", *f.observedGeneration(s))
	for _, c := range f.counters {
		put(c.name, int64(*c.field(s)))
	}
}

// set sets the field of s whose JSON name is key to n, and reports whether
// key names one and n fits it.
func (f statusFields[S]) set(s *S, key []byte, n int64) bool {
	if string(key) == "observedGeneration" {
		*f.observedGeneration(s) = n
		return true
	}
	for _, c := range f.counters {
		if string(key) == c.name {
			return setInt32(c.field(s), n)
		}
	}
	return false
}

// The generation fields and the kind's own fields, for flatstatus.go.

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
	return deploymentStatusFields.set(&s.DeploymentStatus, key, n) || s.federatedGeneration.setField(key, n)
}

func (s *replicaSetStatus) setField(key []byte, n int64) bool {
	return replicaSetStatusFields.set(&s.ReplicaSetStatus, key, n) || s.federatedGeneration.setField(key, n)
}

func (s *statefulSetStatus) setField(key []byte, n int64) bool {
	return statefulSetStatusFields.set(&s.StatefulSetStatus, key, n) || s.federatedGeneration.setField(key, n)
}

func (s *daemonSetStatus) setField(key []byte, n int64) bool {
	return daemonSetStatusFields.set(&s.DaemonSetStatus, key, n) || s.federatedGeneration.setField(key, n)
}
