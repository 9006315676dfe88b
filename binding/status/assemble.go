package status

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/interpreter"
)

// Assemble returns the status.aggregatedStatus Karmada's status controller
// writes to a binding whose spec.resource is resource, from the binding's
// Works (those labelled with its permanent id): one item per Work not
// being deleted, sorted by cluster name (stably, so two Works of one
// cluster keep their order).
//
//   - The cluster is the Work's namespace without karmada-es-; another
//     namespace fails with ErrNotExecutionSpace, and a Work none of whose
//     manifests is resource fails with ErrNoManifest.
//   - A Work whose Applied condition is not True (False, Unknown or
//     missing) gives {clusterName, appliedMessage: the condition's
//     message, health: Unknown}; its manifest statuses are not read.
//   - An applied Work gives {clusterName, applied: true, health: Unknown},
//     and the first manifest status whose identifier is resource's (same
//     ordinal, group, version, kind, namespace and name) supplies status
//     and health as stored: an empty or unknown health is copied as is.
//
// The status is shared with the Work, not copied. The first failing Work
// fails the whole assembly with a *WorkError naming binding (a key such as
// namespace/name, only used in errors) and the cluster.
func Assemble(binding string, resource api.ObjectReference, works []api.Work) ([]interpreter.AggregatedStatusItem, error) {
	items := make([]interpreter.AggregatedStatusItem, 0, len(works))
	id := identifier{ref: resource}
	for i := range works {
		w := &works[i]
		if w.DeletionTimestamp != nil {
			continue
		}
		item, err := id.item(w)
		if err != nil {
			e := &WorkError{Binding: binding, Work: w.Namespace + "/" + w.Name, Err: err}
			if cluster, ok := strings.CutPrefix(w.Namespace, api.ExecutionNamespacePrefix); ok {
				e.Cluster = cluster
			}
			return nil, e
		}
		items = append(items, item)
	}
	slices.SortStableFunc(items, func(a, b interpreter.AggregatedStatusItem) int {
		return cmp.Compare(a.ClusterName, b.ClusterName)
	})
	return items, nil
}

// identifier matches a Work's manifests and manifest statuses with the
// binding's resource.
type identifier struct {
	ref    api.ObjectReference
	gv     schema.GroupVersion
	gvErr  error
	parsed bool
}

// item is the aggregatedStatus item of one Work, checked in Karmada's
// order: the manifest, the namespace, the Applied condition, then the
// manifest statuses.
func (id *identifier) item(w *api.Work) (interpreter.AggregatedStatusItem, error) {
	var item interpreter.AggregatedStatusItem
	ordinal, err := id.manifestIndex(w.Spec.Workload.Manifests)
	if err != nil {
		return item, err
	}
	cluster, ok := strings.CutPrefix(w.Namespace, api.ExecutionNamespacePrefix)
	if !ok {
		return item, ErrNotExecutionSpace
	}
	item.ClusterName = cluster
	item.Health = interpreter.ResourceUnknownHealth
	applied, message, err := appliedCondition(w.Status.Conditions)
	if err != nil || !applied {
		item.AppliedMessage = message
		return item, err
	}
	item.Applied = true
	for i := range w.Status.ManifestStatuses {
		ms := &w.Status.ManifestStatuses[i]
		match, err := id.matches(ms.Identifier, ordinal)
		if err != nil {
			return item, err
		}
		if match {
			item.Status, item.Health = ms.Status, ms.Health
			break
		}
	}
	return item, nil
}

// appliedCondition reads the first Applied condition: True is applied;
// False, Unknown or no condition is not, with the condition's message.
func appliedCondition(conditions []metav1.Condition) (applied bool, message string, err error) {
	c := findCondition(conditions, api.WorkApplied)
	if c == nil {
		return false, "", nil
	}
	switch c.Status {
	case metav1.ConditionTrue:
		return true, "", nil
	case metav1.ConditionFalse, metav1.ConditionUnknown:
		return false, c.Message, nil
	}
	return false, "", fmt.Errorf("condition %s has status %q: want True, False or Unknown", api.WorkApplied, c.Status)
}

func findCondition(conditions []metav1.Condition, typ string) *metav1.Condition {
	for i := range conditions {
		if conditions[i].Type == typ {
			return &conditions[i]
		}
	}
	return nil
}

// matches reports whether a manifest status is about the manifest at
// ordinal, the resource. The resource's apiVersion is parsed at the first
// manifest status, where Karmada parses it.
func (id *identifier) matches(got api.ResourceIdentifier, ordinal int) (bool, error) {
	if !id.parsed {
		id.gv, id.gvErr = schema.ParseGroupVersion(id.ref.APIVersion)
		id.parsed = true
	}
	if id.gvErr != nil {
		return false, id.gvErr
	}
	return got.Ordinal == ordinal && got.Group == id.gv.Group && got.Version == id.gv.Version &&
		got.Kind == id.ref.Kind && got.Namespace == id.ref.Namespace && got.Name == id.ref.Name, nil
}

// manifestIndex returns the index of the first manifest with the
// resource's apiVersion, kind, namespace and name.
func (id *identifier) manifestIndex(manifests []api.Manifest) (int, error) {
	for i := range manifests {
		head, err := readHead(manifests[i].Raw)
		if err != nil {
			return -1, err
		}
		if head.apiVersion == id.ref.APIVersion && head.kind == id.ref.Kind &&
			head.namespace == id.ref.Namespace && head.name == id.ref.Name {
			return i, nil
		}
	}
	return -1, ErrNoManifest
}
