package builtin

import (
	"github.com/luainterp/luainterp/interpreter"
	corev1 "k8s.io/api/core/v1"
)

// aggregatePersistentVolumeClaim: Bound unless a member is Lost (which
// ends the scan) or in another phase, the last of which wins (docs/builtin.md §3.10).
var aggregatePersistentVolumeClaim = statusAggregation[corev1.PersistentVolumeClaim, corev1.PersistentVolumeClaimStatus]{
	status: func(pvc *corev1.PersistentVolumeClaim) *corev1.PersistentVolumeClaimStatus { return &pvc.Status },
	fold: func(_ *corev1.PersistentVolumeClaim, items []interpreter.AggregatedStatusItem) (corev1.PersistentVolumeClaimStatus, error) {
		next := corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound}
		for _, item := range items {
			member := &corev1.PersistentVolumeClaimStatus{}
			ok, err := decodeItem(item, member)
			if err != nil {
				return next, err
			}
			if !ok || member.Phase == corev1.ClaimBound {
				continue
			}
			next.Phase = member.Phase
			if member.Phase == corev1.ClaimLost {
				break
			}
		}
		return next, nil
	},
}

// persistentVolumePhases are the phases a PersistentVolume aggregates to,
// most significant first (docs/builtin.md §3.11).
var persistentVolumePhases = []corev1.PersistentVolumePhase{
	corev1.VolumeFailed, corev1.VolumePending, corev1.VolumeAvailable, corev1.VolumeBound, corev1.VolumeReleased,
}

// aggregatePersistentVolume takes the most significant phase of the
// members; a member without a status counts as Pending.
var aggregatePersistentVolume = statusAggregation[corev1.PersistentVolume, corev1.PersistentVolumeStatus]{
	status: func(pv *corev1.PersistentVolume) *corev1.PersistentVolumeStatus { return &pv.Status },
	fold: func(_ *corev1.PersistentVolume, items []interpreter.AggregatedStatusItem) (corev1.PersistentVolumeStatus, error) {
		phases := map[corev1.PersistentVolumePhase]bool{}
		for _, item := range items {
			member := &corev1.PersistentVolumeStatus{}
			ok, err := decodeItem(item, member)
			if err != nil {
				return corev1.PersistentVolumeStatus{}, err
			}
			if !ok {
				member.Phase = corev1.VolumePending
			}
			phases[member.Phase] = true
		}
		return corev1.PersistentVolumeStatus{Phase: firstOf(persistentVolumePhases, phases)}, nil
	},
}

// firstOf returns the first of ordered that is in set, or the zero value.
func firstOf[P comparable](ordered []P, set map[P]bool) P {
	for _, p := range ordered {
		if set[p] {
			return p
		}
	}
	var zero P
	return zero
}

func persistentVolumeClaimHealthy(pvc *corev1.PersistentVolumeClaim) bool {
	return pvc.Status.Phase == corev1.ClaimBound
}
