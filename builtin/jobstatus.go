package builtin

import (
	"reflect"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A running Job's status is counts and times. The aggregation reads the
// template's from the map and writes the new one as the converter does,
// without either's reflection; a status with anything else (conditions,
// a null, a value the typed decode reads otherwise or refuses) goes
// through the converter, so that it reads, or fails, as it did.

// readJobView reads what the Job aggregation reads of obj, its status,
// as the typed decode of statusView does; false when it cannot tell.
func readJobView(obj map[string]any, job *batchv1.Job) bool {
	if meta, isMap := obj["metadata"].(map[string]any); isMap {
		if g, found := meta["generation"]; found {
			n, isInt := g.(int64)
			if !isInt {
				return false
			}
			job.Generation = n
		}
	}
	v, found := obj["status"]
	if !found {
		return true
	}
	status, isMap := v.(map[string]any)
	if !isMap || status == nil {
		return false
	}
	s := &job.Status
	for k, v := range status {
		var ok bool
		switch k {
		case "active":
			ok = int32From(&s.Active, v)
		case "succeeded":
			ok = int32From(&s.Succeeded, v)
		case "failed":
			ok = int32From(&s.Failed, v)
		case "startTime":
			ok = timeFrom(&s.StartTime, v)
		case "completionTime":
			ok = timeFrom(&s.CompletionTime, v)
		}
		if !ok {
			return false
		}
	}
	return true
}

// int32From sets field to v, a whole number in its range.
func int32From(field *int32, v any) bool {
	n, isInt := v.(int64)
	return isInt && setInt32(field, n)
}

// timeFrom sets field to v, a time of ASCII text, as metav1.Time's
// UnmarshalJSON reads it.
func timeFrom(field **metav1.Time, v any) bool {
	text, isString := v.(string)
	if !isString {
		return false
	}
	for i := range len(text) {
		if text[i] >= 0x80 {
			return false
		}
	}
	t, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return false
	}
	*field = &metav1.Time{Time: t.Local()}
	return true
}

// encodeJobStatus writes s as the converter does when it holds nothing
// but counts and times other than zero; false otherwise.
func encodeJobStatus(s *batchv1.JobStatus) (map[string]any, bool) {
	plain := batchv1.JobStatus{Active: s.Active, Succeeded: s.Succeeded, Failed: s.Failed, StartTime: s.StartTime, CompletionTime: s.CompletionTime}
	if !reflect.DeepEqual(*s, plain) {
		return nil, false
	}
	out := make(map[string]any, 5)
	for _, f := range [...]struct {
		name string
		n    int32
	}{{"active", s.Active}, {"succeeded", s.Succeeded}, {"failed", s.Failed}} {
		if f.n != 0 {
			out[f.name] = int64(f.n)
		}
	}
	for _, f := range [...]struct {
		name string
		t    *metav1.Time
	}{{"startTime", s.StartTime}, {"completionTime", s.CompletionTime}} {
		if f.t == nil {
			continue
		}
		if f.t.IsZero() {
			return nil, false
		}
		out[f.name] = f.t.UTC().Format(time.RFC3339)
	}
	return out, true
}
