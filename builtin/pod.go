package builtin

import (
	"github.com/luainterp/luainterp/interpreter"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// retainPod keeps the member's node, service account, volumes and the
// volume mounts of the containers both sides have (docs/builtin.md §3.7). The result
// is a typed re-encode of desired, computed from the unstructured objects
// when their forms take both (roundtrip.go).
func retainPod(d draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	desired := d.obj
	pod, podOK := roundTrip[corev1.Pod](desired.Object)
	member, memberOK := roundTrip[corev1.Pod](observed.Object)
	if !podOK || !memberOK {
		return retainTypedPod(desired, observed)
	}
	spec, _ := pod["spec"].(map[string]any)
	memberSpec, _ := member["spec"].(map[string]any)
	for _, field := range []string{"nodeName", "serviceAccountName", "volumes"} {
		setAs(spec, memberSpec, field)
	}
	for _, containers := range []string{"containers", "initContainers"} {
		desiredList, _ := spec[containers].([]any)
		memberList, _ := memberSpec[containers].([]any)
		for _, m := range memberList {
			m, _ := m.(map[string]any)
			for _, d := range desiredList {
				if d, _ := d.(map[string]any); d["name"] == m["name"] {
					setAs(d, m, "volumeMounts")
					break
				}
			}
		}
	}
	return &unstructured.Unstructured{Object: pod}, nil
}

// setAs sets dst's key as src has it, absent included: both are re-encodes
// of the same type, where omitempty leaves a zero value out.
func setAs(dst, src map[string]any, key string) {
	if v, found := src[key]; found {
		dst[key] = v
	} else {
		delete(dst, key)
	}
}

// retainTypedPod is retainPod through the typed Pods and the converter.
func retainTypedPod(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	pod, member := &corev1.Pod{}, &corev1.Pod{}
	if err := toTyped(desired, pod); err != nil {
		return nil, err
	}
	if err := toTyped(observed, member); err != nil {
		return nil, err
	}
	pod.Spec.NodeName = member.Spec.NodeName
	pod.Spec.ServiceAccountName = member.Spec.ServiceAccountName
	pod.Spec.Volumes = member.Spec.Volumes
	retainVolumeMounts(pod.Spec.Containers, member.Spec.Containers)
	retainVolumeMounts(pod.Spec.InitContainers, member.Spec.InitContainers)
	return fromTyped(pod)
}

// retainVolumeMounts gives the first container of desired named like each
// observed container the observed container's volume mounts.
func retainVolumeMounts(desired, observed []corev1.Container) {
	for _, member := range observed {
		for i := range desired {
			if desired[i].Name == member.Name {
				desired[i].VolumeMounts = member.VolumeMounts
				break
			}
		}
	}
}

// aggregatePod folds the members' pod phases and container states into a
// new status (docs/builtin.md §3.7). A nil item list re-encodes the template as it is.
func aggregatePod(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, reuse bool) (*unstructured.Unstructured, error) {
	if items == nil {
		if out, ok := roundTrip[corev1.Pod](obj.Object); ok {
			return &unstructured.Unstructured{Object: out}, nil
		}
		pod := &corev1.Pod{}
		if err := toTyped(obj, pod); err != nil {
			return nil, err
		}
		return fromTyped(pod)
	}
	return aggregatePodStatus.aggregate(obj, items, reuse)
}

// podPhases are the phases a Pod aggregates to, most significant first.
var podPhases = []corev1.PodPhase{corev1.PodFailed, corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded}

var aggregatePodStatus = statusAggregation[corev1.Pod, corev1.PodStatus]{
	status: func(pod *corev1.Pod) *corev1.PodStatus { return &pod.Status },
	fold: func(_ *corev1.Pod, items []interpreter.AggregatedStatusItem) (corev1.PodStatus, error) {
		next := corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{}}
		phases := map[corev1.PodPhase]bool{}
		for _, item := range items {
			member := &corev1.PodStatus{}
			ok, err := decodeItem(item, member)
			if err != nil {
				return next, err
			}
			if !ok {
				member.Phase = corev1.PodPending
			}
			phases[member.Phase] = true
			next.ContainerStatuses = appendReduced(next.ContainerStatuses, member.ContainerStatuses)
			next.InitContainerStatuses = appendReduced(next.InitContainerStatuses, member.InitContainerStatuses)
		}
		next.Phase = firstOf(podPhases, phases)
		return next, nil
	},
}

// appendReduced appends each container status reduced to ready and state.
func appendReduced(to, from []corev1.ContainerStatus) []corev1.ContainerStatus {
	for _, c := range from {
		to = append(to, corev1.ContainerStatus{Ready: c.Ready, State: c.State})
	}
	return to
}

// podHealthy: Succeeded, or Running with its first Ready condition true.
func podHealthy(pod *corev1.Pod) bool {
	switch pod.Status.Phase {
	case corev1.PodSucceeded:
		return true
	case corev1.PodRunning:
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodReady {
				return c.Status == corev1.ConditionTrue
			}
		}
	}
	return false
}
