package builtin

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
)

// viaConverter is the aggregation done wholly with the typed object: the
// view decoded, a changed status set on the typed object, which the
// converter re-encodes. The handlers must answer exactly as it does.
func (a statusAggregation[T, S]) viaConverter(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	view := new(T)
	if err := fromUnstructured(statusView(obj), view); err != nil {
		return nil, fmt.Errorf("decoding %s %q: %w", obj.GetKind(), obj.GetName(), err)
	}
	next, err := a.fold(view, items)
	if err != nil {
		return nil, err
	}
	if reflect.DeepEqual(*a.status(view), next) {
		return obj.DeepCopy(), nil
	}
	typed := new(T)
	if err := toTyped(obj, typed); err != nil {
		return nil, err
	}
	if old := a.status(typed); a.apply != nil {
		a.apply(old, next)
	} else {
		*old = next
	}
	return fromTyped(typed)
}

type referenceAggregator interface {
	aggregator
	viaConverter(*unstructured.Unstructured, []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error)
}

// TestAggregateMatchesConverter runs every aggregation on the objects and
// status items of the test cases, and on workloads with random statuses,
// and compares it with the aggregation done with the typed object.
func TestAggregateMatchesConverter(t *testing.T) {
	fixClock(t)

	objects := caseObjects(t)
	itemSets := caseItems(t)
	rng := rand.New(rand.NewPCG(20261202, 16))
	for range 300 {
		objects = append(objects, randomWorkload(rng))
		itemSets = append(itemSets, randomItems(rng))
	}
	for gvk, a := range referenceAggregators() {
		t.Run(gvk.Kind, func(t *testing.T) {
			for i, obj := range objects {
				u := (&unstructured.Unstructured{Object: obj}).DeepCopy()
				u.SetGroupVersionKind(gvk)
				input, _ := json.Marshal(obj)
				sameAsReference(t, a, u, itemSets[i%len(itemSets)], fmt.Sprintf("object %d: %s", i, input))
			}
		})
	}
}

// referenceAggregators are the aggregations to hold equal to the one done
// with the typed object, by kind.
func referenceAggregators() map[schema.GroupVersionKind]referenceAggregator {
	out := map[schema.GroupVersionKind]referenceAggregator{podGVK: aggregatePodStatus}
	for gvk, h := range kinds {
		if a, ok := h.aggregate.(referenceAggregator); ok {
			out[gvk] = a
		}
	}
	return out
}

// sameAsReference checks that a aggregates u as viaConverter does, with
// and without reuse, and leaves u as it was.
func sameAsReference(t *testing.T, a referenceAggregator, u *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, what string) {
	t.Helper()
	want, wantErr := a.viaConverter(u, items)
	before := u.DeepCopy()
	for _, reuse := range []bool{false, true} {
		got, err := a.aggregate(u, items, reuse)
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), "%s %s, reuse %t", u.GetKind(), what, reuse)
			continue
		}
		require.NoError(t, err, "%s %s, reuse %t", u.GetKind(), what, reuse)
		require.Equal(t, want.Object, got.Object, "%s %s, reuse %t", u.GetKind(), what, reuse)
		require.Equal(t, before.Object, u.Object, "%s %s: reuse %t modified the input", u.GetKind(), what, reuse)
	}
}

// fixClock stamps the conditions an aggregation adds with one time.
func fixClock(tb testing.TB) {
	at := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	now = func() metav1.Time { return metav1.NewTime(at) }
	tb.Cleanup(func() { now = metav1.Now })
}

// FuzzAggregate compares every aggregation, with and without reuse, with
// the aggregation done with the typed object, on fuzzed templates and
// member statuses, seeded with the objects of the test cases and
// reflected workload and Job statuses.
func FuzzAggregate(f *testing.F) {
	statuses := []string{
		`{"generation":3,"resourceTemplateGeneration":7,"observedGeneration":3,"replicas":3,"readyReplicas":2}`,
		`{"startTime":"2026-11-30T09:12:44Z","active":2,"succeeded":1}`, `{}`,
	}
	for i, obj := range caseObjects(f) {
		data, err := json.Marshal(obj)
		require.NoError(f, err)
		f.Add(data, statuses[i%len(statuses)])
	}
	fixClock(f)
	f.Fuzz(func(t *testing.T, data []byte, status string) {
		obj := map[string]any{}
		if utiljson.Unmarshal(data, &obj) != nil {
			return
		}
		items := []interpreter.AggregatedStatusItem{
			{ClusterName: "m1", Status: &runtime.RawExtension{Raw: []byte(status)}},
			{ClusterName: "m2", Status: &runtime.RawExtension{Raw: []byte(status)}},
			{ClusterName: "m3"},
		}
		for gvk, a := range referenceAggregators() {
			u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
			u.SetGroupVersionKind(gvk)
			sameAsReference(t, a, u, items, string(data))
		}
	})
}

// caseItems returns the status item lists of the test cases.
func caseItems(tb testing.TB) [][]interpreter.AggregatedStatusItem {
	tb.Helper()
	var sets [][]interpreter.AggregatedStatusItem
	for _, c := range allCases(tb) {
		if c.StatusItems != nil {
			sets = append(sets, c.StatusItems)
		}
	}
	return sets
}

// allCases returns every test case of the built-in kinds: ours and the
// conformance samples.
func allCases(tb testing.TB) []*testsuite.Case {
	tb.Helper()
	var all []*testsuite.Case
	for _, pattern := range []string{"testdata/cases/*.yaml", "../testdata/conformance/native/*.yaml"} {
		files, err := filepath.Glob(pattern)
		require.NoError(tb, err)
		for _, file := range files {
			cases, err := testsuite.ReadFile(file)
			require.NoError(tb, err)
			all = append(all, cases...)
		}
	}
	return all
}

// workloadFields are the status fields of the four workloads.
var workloadFields = []string{
	"observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas",
	"currentReplicas", "fullyLabeledReplicas", "currentNumberScheduled", "numberMisscheduled",
	"desiredNumberScheduled", "numberReady", "updatedNumberScheduled", "numberAvailable", "numberUnavailable",
	"active", "succeeded", "failed",
}

// jobFields are the counts of a Job's status, jobTimes its times.
var jobFields = []string{"active", "succeeded", "failed"}

// jobTimes are the time fields of a Job's status.
var jobTimes = []string{"startTime", "completionTime"}

// randomTime returns a time as RFC 3339 writes it mostly, and now and
// then something metav1.Time reads otherwise or refuses.
func randomTime(rng *rand.Rand) any {
	switch rng.IntN(10) {
	case 0:
		return nil
	case 1:
		return "yesterday"
	case 2:
		return ""
	case 3:
		return int64(3)
	case 4:
		return "2026-11-30T09:12:44.5+02:00"
	}
	return fmt.Sprintf("2026-11-30T09:%02d:44Z", rng.IntN(60))
}

// randomValue returns a whole number mostly, and now and then something a
// typed decode treats otherwise.
func randomValue(rng *rand.Rand) any {
	switch rng.IntN(12) {
	case 0:
		return nil
	case 1:
		return float64(rng.IntN(4))
	case 2:
		return "3"
	case 3:
		return int64(1) << 40
	}
	return int64(rng.IntN(4))
}

// randomWorkload returns a workload with a random status.
func randomWorkload(rng *rand.Rand) map[string]any {
	status := map[string]any{}
	fields := workloadFields
	if rng.IntN(3) == 0 {
		fields = jobFields // a running Job's status
	}
	for _, name := range fields {
		if rng.IntN(3) == 0 {
			status[name] = randomValue(rng)
		}
	}
	for _, name := range jobTimes {
		if rng.IntN(3) == 0 {
			status[name] = randomTime(rng)
		}
	}
	switch rng.IntN(5) {
	case 0:
		status["conditions"] = []any{map[string]any{"type": "Available", "status": "True", "lastTransitionTime": "2026-11-30T09:12:44Z"}}
	case 1:
		status["conditions"] = []any{}
	case 2:
		status["conditions"] = nil
	}
	if rng.IntN(4) == 0 {
		status["collisionCount"] = randomValue(rng)
	}
	obj := map[string]any{
		"metadata": map[string]any{"name": "random", "generation": randomValue(rng)},
		"spec": map[string]any{
			"replicas": int64(rng.IntN(5)),
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"cpu": "1000m"}}},
			}}},
		},
	}
	switch rng.IntN(6) {
	case 0:
	case 1:
		obj["status"] = nil
	case 2:
		obj["status"] = "ready"
	default:
		obj["status"] = status
	}
	return obj
}

// randomItems returns reflected workload statuses, some without status.
func randomItems(rng *rand.Rand) []interpreter.AggregatedStatusItem {
	items := make([]interpreter.AggregatedStatusItem, rng.IntN(4))
	for i := range items {
		items[i].ClusterName = fmt.Sprintf("member-%d", i)
		if rng.IntN(5) == 0 {
			continue
		}
		status := map[string]any{"generation": randomValue(rng), "resourceTemplateGeneration": randomValue(rng)}
		fields := workloadFields
		if rng.IntN(3) == 0 {
			status, fields = map[string]any{}, jobFields // a Job's reflected status
		}
		for _, name := range fields {
			if rng.IntN(2) == 0 {
				status[name] = randomValue(rng)
			}
		}
		for _, name := range jobTimes {
			if rng.IntN(2) == 0 {
				status[name] = randomTime(rng)
			}
		}
		raw, _ := json.Marshal(status)
		items[i].Status = &runtime.RawExtension{Raw: raw}
	}
	return items
}
