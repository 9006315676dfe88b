package builtin

import (
	"github.com/luainterp/luainterp/interpreter"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// PodDisruptionBudget and HorizontalPodAutoscaler: counters (docs/builtin.md §3.14, §3.15).

// reflectPodDisruptionBudget reflects the budget counters and disrupted pods.
func reflectPodDisruptionBudget(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status := &policyv1.PodDisruptionBudgetStatus{}
	found, err := decodeStatus(obj, status)
	if err != nil || !found {
		return nil, err
	}
	return rawJSON(policyv1.PodDisruptionBudgetStatus{
		DisruptedPods: status.DisruptedPods, DisruptionsAllowed: status.DisruptionsAllowed,
		CurrentHealthy: status.CurrentHealthy, DesiredHealthy: status.DesiredHealthy, ExpectedPods: status.ExpectedPods,
	})
}

// aggregatePodDisruptionBudget sums the counters and collects disrupted
// pods as <cluster>/<pod> into a new status.
var aggregatePodDisruptionBudget = statusAggregation[policyv1.PodDisruptionBudget, policyv1.PodDisruptionBudgetStatus]{
	status: func(pdb *policyv1.PodDisruptionBudget) *policyv1.PodDisruptionBudgetStatus { return &pdb.Status },
	fold: func(_ *policyv1.PodDisruptionBudget, items []interpreter.AggregatedStatusItem) (policyv1.PodDisruptionBudgetStatus, error) {
		next := policyv1.PodDisruptionBudgetStatus{DisruptedPods: map[string]metav1.Time{}}
		err := eachItem(items, func(item interpreter.AggregatedStatusItem, member *policyv1.PodDisruptionBudgetStatus) {
			next.CurrentHealthy += member.CurrentHealthy
			next.DesiredHealthy += member.DesiredHealthy
			next.ExpectedPods += member.ExpectedPods
			next.DisruptionsAllowed += member.DisruptionsAllowed
			for pod, evicted := range member.DisruptedPods {
				next.DisruptedPods[item.ClusterName+"/"+pod] = evicted
			}
		})
		return next, err
	},
}

func podDisruptionBudgetHealthy(pdb *policyv1.PodDisruptionBudget) bool {
	return pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy
}

// reflectHorizontalPodAutoscaler reflects the replica counts; currentMetrics
// is always written as null.
func reflectHorizontalPodAutoscaler(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status := &autoscalingv2.HorizontalPodAutoscalerStatus{}
	found, err := decodeStatus(obj, status)
	if err != nil || !found {
		return nil, err
	}
	return rawJSON(autoscalingv2.HorizontalPodAutoscalerStatus{
		CurrentReplicas: status.CurrentReplicas, DesiredReplicas: status.DesiredReplicas,
	})
}

// aggregateHorizontalPodAutoscaler sums the replica counts into a new status.
var aggregateHorizontalPodAutoscaler = statusAggregation[autoscalingv2.HorizontalPodAutoscaler, autoscalingv2.HorizontalPodAutoscalerStatus]{
	status: func(hpa *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscalerStatus {
		return &hpa.Status
	},
	fold: func(_ *autoscalingv2.HorizontalPodAutoscaler, items []interpreter.AggregatedStatusItem) (autoscalingv2.HorizontalPodAutoscalerStatus, error) {
		var next autoscalingv2.HorizontalPodAutoscalerStatus
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *autoscalingv2.HorizontalPodAutoscalerStatus) {
			next.CurrentReplicas += member.CurrentReplicas
			next.DesiredReplicas += member.DesiredReplicas
		})
		return next, err
	},
}
