package builtin

import (
	"strings"
	"time"

	"github.com/luainterp/luainterp/interpreter"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// now is the time stamped on the conditions an aggregation adds; tests
// replace it.
var now = metav1.Now

// reflectJob reflects conditions, start and completion times and the pod
// counters (docs/builtin.md §3.5).
func reflectJob(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status := &batchv1.JobStatus{}
	found, err := decodeStatus(obj, status)
	if err != nil || !found {
		return nil, err
	}
	return rawJSON(batchv1.JobStatus{
		Conditions: status.Conditions, StartTime: status.StartTime, CompletionTime: status.CompletionTime,
		Active: status.Active, Succeeded: status.Succeeded, Failed: status.Failed,
	})
}

// aggregateJob folds the members' Job statuses into a new one (docs/builtin.md §3.5).
// A template already Complete or Failed is left as it is.
var aggregateJob = statusAggregation[batchv1.Job, batchv1.JobStatus]{
	status: func(job *batchv1.Job) *batchv1.JobStatus { return &job.Status },
	fold: func(job *batchv1.Job, items []interpreter.AggregatedStatusItem) (batchv1.JobStatus, error) {
		if finished, _ := jobFinished(job.Status.Conditions); finished {
			return job.Status, nil
		}
		return aggregateJobStatus(job.Status.StartTime, items)
	},
	view:   readJobView,
	encode: encodeJobStatus,
}

func aggregateJobStatus(startTime *metav1.Time, items []interpreter.AggregatedStatusItem) (batchv1.JobStatus, error) {
	var (
		status                          batchv1.JobStatus
		failedClusters                  []string
		succeeded, criteriaMet          int
		started, completed              int
		earliestStart, latestCompletion *metav1.Time
	)
	err := eachItem(items, func(item interpreter.AggregatedStatusItem, member *jobMemberStatus) {
		status.Active += member.Active
		status.Succeeded += member.Succeeded
		status.Failed += member.Failed
		switch finished, how := jobFinished(member.Conditions); {
		case finished && how == batchv1.JobComplete:
			succeeded++
		case finished && how == batchv1.JobFailed:
			failedClusters = append(failedClusters, item.ClusterName)
		}
		if hasCondition(member.Conditions, batchv1.JobSuccessCriteriaMet) {
			criteriaMet++
		}
		if member.StartTime != nil {
			started++
			if earliestStart == nil || member.StartTime.Before(earliestStart) {
				earliestStart = member.StartTime
			}
		}
		if member.CompletionTime != nil {
			completed++
			if latestCompletion == nil || latestCompletion.Before(member.CompletionTime) {
				latestCompletion = member.CompletionTime
			}
		}
	})
	if err != nil {
		return status, err
	}
	n := len(items)
	if len(failedClusters) > 0 {
		status.Conditions = append(status.Conditions, jobCondition(batchv1.JobFailed, "JobFailed",
			"Job executed failed in member clusters "+strings.Join(failedClusters, ",")))
	}
	if succeeded == n && n > 0 {
		status.Conditions = append(status.Conditions, jobCondition(batchv1.JobComplete, "Completed", "Job completed"))
		if criteriaMet == n {
			status.Conditions = append(status.Conditions, jobCondition(batchv1.JobSuccessCriteriaMet,
				"CompletionsReached", "All member clusters have met success criteria"))
		}
	}
	switch {
	case startTime != nil:
		status.StartTime = startTime
	case started == n && n > 0:
		status.StartTime = earliestStart
	}
	if completed == n && n > 0 {
		status.CompletionTime = latestCompletion
	}
	return status, nil
}

// jobMemberStatus is a member's reflected Job status. A running Job's,
// whole numbers and times, is read without encoding/json (flatstatus.go).
type jobMemberStatus struct {
	batchv1.JobStatus
}

func (s *jobMemberStatus) setField(key []byte, n int64) bool {
	switch string(key) {
	case "active":
		return setInt32(&s.Active, n)
	case "succeeded":
		return setInt32(&s.Succeeded, n)
	case "failed":
		return setInt32(&s.Failed, n)
	}
	return false
}

// setString reads a time as metav1.Time's UnmarshalJSON does.
func (s *jobMemberStatus) setString(key, text []byte) bool {
	var field **metav1.Time
	switch string(key) {
	case "startTime":
		field = &s.StartTime
	case "completionTime":
		field = &s.CompletionTime
	default:
		return false
	}
	t, err := time.Parse(time.RFC3339, string(text))
	if err != nil {
		return false
	}
	*field = &metav1.Time{Time: t.Local()}
	return true
}

func jobCondition(kind batchv1.JobConditionType, reason, message string) batchv1.JobCondition {
	t := now()
	return batchv1.JobCondition{
		Type: kind, Status: corev1.ConditionTrue, LastProbeTime: t, LastTransitionTime: t,
		Reason: reason, Message: message,
	}
}

// jobFinished returns the first Complete or Failed condition that is true.
func jobFinished(conditions []batchv1.JobCondition) (bool, batchv1.JobConditionType) {
	for _, c := range conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true, c.Type
		}
	}
	return false, ""
}

func hasCondition(conditions []batchv1.JobCondition, kind batchv1.JobConditionType) bool {
	for _, c := range conditions {
		if c.Type == kind && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// aggregateCronJob concatenates the members' active Jobs and takes the
// latest schedule and success times (docs/builtin.md §3.6).
var aggregateCronJob = statusAggregation[batchv1.CronJob, batchv1.CronJobStatus]{
	status: func(c *batchv1.CronJob) *batchv1.CronJobStatus { return &c.Status },
	fold: func(_ *batchv1.CronJob, items []interpreter.AggregatedStatusItem) (batchv1.CronJobStatus, error) {
		var next batchv1.CronJobStatus
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *batchv1.CronJobStatus) {
			next.Active = append(next.Active, member.Active...)
			next.LastScheduleTime = later(next.LastScheduleTime, member.LastScheduleTime)
			next.LastSuccessfulTime = later(next.LastSuccessfulTime, member.LastSuccessfulTime)
		})
		return next, err
	},
}

// later returns the later of two times, ignoring nil ones.
func later(a, b *metav1.Time) *metav1.Time {
	if a == nil || (b != nil && a.Before(b)) {
		return b
	}
	return a
}
