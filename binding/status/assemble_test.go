package status_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/interpreter"
)

var web = api.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web"}

const webManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":2}}`

// webID is the identifier the member side writes for web, the first manifest.
var webID = api.ResourceIdentifier{Ordinal: 0, Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "shop", Name: "web"}

// work returns a Work of web in cluster's execution namespace with the
// Applied condition (none when applied is ""), and one manifest status.
func work(cluster, applied string, health interpreter.ResourceHealth, st string) api.Work {
	w := api.Work{}
	w.Namespace, w.Name = api.ExecutionNamespacePrefix+cluster, "web-56d6c779bb"
	w.Spec.Workload.Manifests = []api.Manifest{{RawExtension: runtime.RawExtension{Raw: []byte(webManifest)}}}
	if applied != "" {
		w.Status.Conditions = []metav1.Condition{{Type: api.WorkApplied, Status: metav1.ConditionStatus(applied), Message: "msg of " + cluster}}
	}
	ms := api.ManifestStatus{Identifier: webID, Health: health}
	if st != "" {
		ms.Status = &runtime.RawExtension{Raw: []byte(st)}
	}
	w.Status.ManifestStatuses = []api.ManifestStatus{ms}
	return w
}

func raw(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }

func TestAssemble(t *testing.T) {
	const ready = `{"readyReplicas":2}`
	deleted := work("gone", "True", "Healthy", ready)
	deleted.DeletionTimestamp = &metav1.Time{Time: time.Unix(0, 0)}
	otherOrdinal := work("m1", "True", "Healthy", ready)
	otherOrdinal.Status.ManifestStatuses[0].Identifier.Ordinal = 1
	secondStatus := work("m1", "True", "Healthy", ready)
	secondStatus.Status.ManifestStatuses = append([]api.ManifestStatus{{Identifier: api.ResourceIdentifier{Kind: "Service", Name: "web"}, Health: "Unhealthy"}},
		secondStatus.Status.ManifestStatuses...)
	twoManifests := work("m1", "True", "Healthy", ready)
	twoManifests.Spec.Workload.Manifests = append([]api.Manifest{{RawExtension: *raw(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop"}}`)}},
		twoManifests.Spec.Workload.Manifests...)
	twoManifests.Status.ManifestStatuses[0].Identifier.Ordinal = 1
	twoConditions := work("m1", "False", "Healthy", ready)
	twoConditions.Status.Conditions = append(twoConditions.Status.Conditions, metav1.Condition{Type: api.WorkApplied, Status: metav1.ConditionTrue})
	tests := []struct {
		name  string
		works []api.Work
		want  []interpreter.AggregatedStatusItem
	}{
		{"no works: an empty list", nil, []interpreter.AggregatedStatusItem{}},
		{"applied and healthy", []api.Work{work("m1", "True", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Healthy", Status: raw(ready)}}},
		{"applied false keeps the message and ignores the manifest status", []api.Work{work("m1", "False", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "msg of m1", Health: "Unknown"}}},
		{"applied unknown is not applied", []api.Work{work("m1", "Unknown", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "msg of m1", Health: "Unknown"}}},
		{"no Applied condition", []api.Work{work("m1", "", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Health: "Unknown"}}},
		{"the first Applied condition counts", []api.Work{twoConditions},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "msg of m1", Health: "Unknown"}}},
		{"empty health copied as stored", []api.Work{work("m1", "True", "", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Status: raw(ready)}}},
		{"out-of-enum health copied as stored", []api.Work{work("m1", "True", "Sickly", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Sickly", Status: raw(ready)}}},
		{"applied without a status collected", []api.Work{work("m1", "True", "Healthy", "")},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Healthy"}}},
		{"a manifest status of another ordinal is not the resource's", []api.Work{otherOrdinal},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Unknown"}}},
		{"the matching manifest status is found after others", []api.Work{secondStatus},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Healthy", Status: raw(ready)}}},
		{"the resource's ordinal is its index among the manifests", []api.Work{twoManifests},
			[]interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Healthy", Status: raw(ready)}}},
		{"a Work being deleted gives no item", []api.Work{deleted}, []interpreter.AggregatedStatusItem{}},
		{"sorted by cluster, a cluster not in the binding included",
			[]api.Work{work("m3", "True", "Healthy", ready), work("not-targeted", "True", "Unhealthy", ready), work("m1", "False", "", "")},
			[]interpreter.AggregatedStatusItem{
				{ClusterName: "m1", AppliedMessage: "msg of m1", Health: "Unknown"},
				{ClusterName: "m3", Applied: true, Health: "Healthy", Status: raw(ready)},
				{ClusterName: "not-targeted", Applied: true, Health: "Unhealthy", Status: raw(ready)},
			}},
		{"two Works of one cluster give two items in their order",
			[]api.Work{work("m2", "True", "Unhealthy", ready), work("m1", "True", "Healthy", ready), work("m2", "True", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{
				{ClusterName: "m1", Applied: true, Health: "Healthy", Status: raw(ready)},
				{ClusterName: "m2", Applied: true, Health: "Unhealthy", Status: raw(ready)},
				{ClusterName: "m2", Applied: true, Health: "Healthy", Status: raw(ready)},
			}},
		{"the empty execution namespace names the empty cluster", []api.Work{work("", "True", "Healthy", ready)},
			[]interpreter.AggregatedStatusItem{{ClusterName: "", Applied: true, Health: "Healthy", Status: raw(ready)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := status.Assemble("shop/web-deployment", web, tt.works)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestAssembleErrors(t *testing.T) {
	wrongNamespace := work("m1", "True", "Healthy", "")
	wrongNamespace.Namespace = "shop"
	noManifest := work("m1", "True", "Healthy", "")
	noManifest.Spec.Workload.Manifests = nil
	otherObject := work("m1", "True", "Healthy", "")
	otherObject.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"shop"}}`)
	notJSON := work("m1", "True", "Healthy", "")
	notJSON.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":`)
	noKind := work("m1", "True", "Healthy", "")
	noKind.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop"}}`)
	badCondition := work("m1", "Maybe", "Healthy", "")
	tests := []struct {
		name   string
		ref    api.ObjectReference
		works  []api.Work
		is     error
		errMsg string
	}{
		{"a namespace that is no execution space", web, []api.Work{work("m1", "True", "Healthy", ""), wrongNamespace}, status.ErrNotExecutionSpace,
			"binding shop/web-deployment: work shop/web-56d6c779bb: the execution space name is in wrong format"},
		{"no manifest at all", web, []api.Work{noManifest}, status.ErrNoManifest,
			"binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): no such manifest exist"},
		{"no manifest of the resource", web, []api.Work{otherObject}, status.ErrNoManifest,
			"binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): no such manifest exist"},
		{"the manifest is checked before the namespace", web, []api.Work{func() api.Work { w := noManifest; w.Namespace = "shop"; return w }()}, status.ErrNoManifest,
			"binding shop/web-deployment: work shop/web-56d6c779bb: no such manifest exist"},
		{"a manifest that is not JSON", web, []api.Work{notJSON}, nil,
			"binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): unexpected end of JSON input"},
		{"a manifest without kind", web, []api.Work{noKind}, nil,
			`binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): Object 'Kind' is missing in '{"apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop"}}'`},
		{"an Applied condition with another status", web, []api.Work{badCondition}, nil,
			`binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): condition Applied has status "Maybe": want True, False or Unknown`},
		{"an unparsable apiVersion fails at the first manifest status",
			api.ObjectReference{APIVersion: "a/b/c", Kind: "Deployment", Namespace: "shop", Name: "web"},
			[]api.Work{func() api.Work {
				w := work("m1", "True", "Healthy", "")
				w.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"a/b/c","kind":"Deployment","metadata":{"name":"web","namespace":"shop"}}`)
				return w
			}()}, nil,
			"binding shop/web-deployment: work karmada-es-m1/web-56d6c779bb (cluster m1): unexpected GroupVersion string: a/b/c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := status.Assemble("shop/web-deployment", tt.ref, tt.works)
			assert.Nil(t, got)
			require.Error(t, err)
			assert.EqualError(t, err, tt.errMsg)
			var we *status.WorkError
			require.True(t, errors.As(err, &we))
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
}

// TestAssembleUnparsableAPIVersionUnused: Karmada parses the resource's
// apiVersion only to compare a manifest status, so a Work not applied, or
// without manifest statuses, assembles.
func TestAssembleUnparsableAPIVersionUnused(t *testing.T) {
	ref := api.ObjectReference{APIVersion: "a/b/c", Kind: "Deployment", Namespace: "shop", Name: "web"}
	w := work("m1", "False", "Healthy", "")
	w.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"a/b/c","kind":"Deployment","metadata":{"name":"web","namespace":"shop"}}`)
	got, err := status.Assemble("", ref, []api.Work{w})
	require.NoError(t, err)
	assert.Equal(t, []interpreter.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "msg of m1", Health: "Unknown"}}, got)
}

// TestAssembleManifestHead: a manifest is matched on its fields as an
// Unstructured object reads them, exact keys only, whatever else it holds.
func TestAssembleManifestHead(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		match    bool
	}{
		{"plain", webManifest, true},
		{"keys in another case do not count", `{"apiVersion":"apps/v1","kind":"Deployment","Kind":"Service","metadata":{"name":"web","namespace":"shop","Name":"api"}}`, true},
		{"a key only in another case is missing", `{"apiVersion":"apps/v1","Kind":"Deployment","kind":"Deployment","metadata":{"Name":"web","namespace":"shop"}}`, false},
		{"escaped strings", `{"apiVersion":"apps\/v1","kind":"Deploy\u006dent","metadata":{"name":"web","namespace":"shop"}}`, true},
		{"a namespace that is not a string reads as none", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":7}}`, false},
		{"null metadata", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":null}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := work("m1", "True", "Healthy", `{}`)
			w.Spec.Workload.Manifests[0].Raw = []byte(tt.manifest)
			got, err := status.Assemble("", web, []api.Work{w})
			if !tt.match {
				assert.ErrorIs(t, err, status.ErrNoManifest)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "Healthy", string(got[0].Health))
		})
	}
}

// TestAssembleHostileStatus: a status is carried as it is, however large
// or deep, without being decoded.
func TestAssembleHostileStatus(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)
	huge := `{"items":[` + strings.Repeat(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",`, 100_000) + `"x"]}`
	notJSON := `{"a":`
	for name, st := range map[string]string{"deep": deep, "huge": huge, "not JSON": notJSON} {
		t.Run(name, func(t *testing.T) {
			got, err := status.Assemble("", web, []api.Work{work("m1", "True", "Healthy", st)})
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, st, string(got[0].Status.Raw))
		})
	}
}
