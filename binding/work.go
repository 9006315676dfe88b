package binding

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/prune"
	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// work runs the per-cluster steps on a fresh copy of the template and
// returns the Work as the binding controller writes it.
func (p *Pipeline) work(ctx context.Context, b *prepared, target api.TargetCluster, res *ClusterResult) (*api.Work, error) {
	clone, err := p.clone(ctx, b, target)
	if err != nil {
		return nil, err
	}
	if err := setCompletions(clone, b.seats, target.Name); err != nil {
		return nil, err
	}
	if share, ok := b.seats[target.Name]; ok {
		res.Completions = &share
	}
	cluster, ok := b.clusters[target.Name]
	if !ok {
		return nil, fmt.Errorf("get cluster: no Cluster named %q was given", target.Name)
	}
	if res.Overrides, err = b.overrides.Apply(clone, cluster); err != nil {
		return nil, err
	}

	binding := b.binding
	idKey, id := permanentIDLabel(binding)
	conflict := conflictResolution(clone, binding.Spec.ConflictResolution)
	name := b.workName(clone)
	namespace := ExecutionNamespace(target.Name)

	var labelsArray, annotationsArray [8]entry // on the stack, in the order they are set
	labels, annotations := append(labelsArray[:0], entry{idKey, id}), annotationsArray[:0]
	if gen := clone.GetGeneration(); gen > 0 {
		annotations = append(annotations, entry{api.ResourceTemplateGenerationAnnotation, strconv.FormatInt(gen, 10)})
	}
	workAnnotations := make(map[string]string, 5)
	for _, a := range b.bindingAnnotations {
		workAnnotations[a.key] = a.value
		annotations = append(annotations, a)
	}
	workAnnotations[api.ConflictResolutionAnnotation] = conflict
	if v := res.Overrides.Cluster.Annotation(); v != "" {
		workAnnotations[api.AppliedClusterOverridesAnnotation] = v
	}
	if v := res.Overrides.Namespaced.Annotation(); v != "" {
		workAnnotations[api.AppliedOverridesAnnotation] = v
	}
	if p.failoverInjection {
		for k, v := range preservedLabels(b, target.Name) {
			labels = append(labels, entry{k, v})
		}
	}
	labels = append(labels, entry{api.ManagedLabel, "true"})
	annotations = append(annotations,
		entry{api.ResourceTemplateUIDAnnotation, string(clone.GetUID())},
		entry{api.WorkNameAnnotation, name},
		entry{api.WorkNamespaceAnnotation, namespace},
		entry{api.ConflictResolutionAnnotation, conflict})
	manifest, err := finalizeManifest(clone, labels, annotations)
	if err != nil {
		return nil, err
	}
	return &api.Work{
		TypeMeta: metav1.TypeMeta{APIVersion: api.WorkAPIVersion, Kind: api.KindWork},
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   namespace,
			Finalizers:  []string{api.ExecutionControllerFinalizer},
			Labels:      map[string]string{idKey: id},
			Annotations: workAnnotations,
		},
		Spec: api.WorkSpec{
			Workload:                    api.WorkloadTemplate{Manifests: []api.Manifest{{RawExtension: runtime.RawExtension{Raw: manifest}}}},
			SuspendDispatching:          ptr(suspended(binding.Spec.Suspension, target.Name)),
			PreserveResourcesOnDeletion: ptr(binding.Spec.PreserveResourcesOnDeletion != nil && *binding.Spec.PreserveResourcesOnDeletion),
		},
	}, nil
}

// conflictResolution returns the clone's conflict-resolution annotation
// when it is "overwrite" or "abort", else the binding's choice, where
// anything but Overwrite means abort.
func conflictResolution(clone *unstructured.Unstructured, fromBinding string) string {
	switch v := annotation(clone, api.ConflictResolutionAnnotation); v {
	case api.ConflictResolutionOverwrite, api.ConflictResolutionAbort:
		return v
	}
	if fromBinding == api.ConflictOverwrite {
		return api.ConflictResolutionOverwrite
	}
	return api.ConflictResolutionAbort
}

// annotation returns obj.GetAnnotations()[key] without copying the map:
// "" when the annotations are not a map of strings and nulls.
func annotation(obj *unstructured.Unstructured, key string) string {
	md, _ := obj.Object["metadata"].(map[string]any)
	annotations, _ := md["annotations"].(map[string]any)
	for _, v := range annotations {
		if _, ok := v.(string); !ok && v != nil {
			return ""
		}
	}
	v, _ := annotations[key].(string)
	return v
}

// permanentIDLabel is the binding's identity label (docs/binding.md §4.5).
func permanentIDLabel(b *api.ResourceBinding) (key, value string) {
	if b.IsCluster() {
		return api.ClusterResourceBindingPermanentIDLabel, b.PermanentID()
	}
	return api.ResourceBindingPermanentIDLabel, b.PermanentID()
}

// suspended reports whether dispatching to cluster is suspended.
func suspended(s *api.Suspension, cluster string) bool {
	if s == nil {
		return false
	}
	if s.Dispatching != nil && *s.Dispatching {
		return true
	}
	return s.DispatchingOnClusters != nil && slices.Contains(s.DispatchingOnClusters.ClusterNames, cluster)
}

// preservedLabels returns the labels a stateful failover preserved, to be
// set on the manifest: only for a binding with exactly one target cluster
// whose last eviction task purged Directly (or Immediately, its deprecated
// name) from another cluster.
func preservedLabels(b *prepared, cluster string) map[string]string {
	tasks := b.binding.Spec.GracefulEvictionTasks
	if len(b.targets) != 1 || len(tasks) == 0 {
		return nil
	}
	last := tasks[len(tasks)-1]
	if api.CanonicalPurgeMode(last.PurgeMode) != api.PurgeModeDirectly || slices.Contains(last.ClustersBeforeFailover, cluster) {
		return nil
	}
	return last.PreservedLabelState
}

// entry is one label or annotation to set.
type entry struct{ key, value string }

// finalizeManifest sets labels and annotations on the clone, in order, prunes
// it, records the managed keys and encodes it as compact JSON with sorted
// keys.
func finalizeManifest(clone *unstructured.Unstructured, labels, annotations []entry) ([]byte, error) {
	if err := setStrings(clone, "labels", labels); err != nil {
		return nil, err
	}
	if err := setStrings(clone, "annotations", annotations); err != nil {
		return nil, err
	}
	if err := prune.Prune(clone); err != nil {
		return nil, err
	}
	md := clone.Object["metadata"].(map[string]any)
	annotationMap := md["annotations"].(map[string]any)
	annotationMap[api.ManagedAnnotationsAnnotation] = managedKeys(annotationMap, api.ManagedAnnotationsAnnotation, api.ManagedLabelsAnnotation)
	annotationMap[api.ManagedLabelsAnnotation] = managedKeys(md["labels"].(map[string]any))
	return encodeManifest(clone.Object)
}

// managedKeys lists m's keys and extra, sorted and joined with ",".
func managedKeys(m map[string]any, extra ...string) string {
	keys := make([]string, 0, len(m)+len(extra))
	for k := range m {
		keys = append(keys, k)
	}
	for _, k := range extra {
		if _, ok := m[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// setStrings sets keys of metadata.<field>, in order, creating the map if
// needed.
func setStrings(obj *unstructured.Unstructured, field string, entries []entry) error {
	md, ok := obj.Object["metadata"].(map[string]any)
	if !ok {
		if obj.Object["metadata"] != nil {
			return fmt.Errorf("metadata: want an object, got %s", jsonvalue.Describe(obj.Object["metadata"]))
		}
		md = map[string]any{}
		obj.Object["metadata"] = md
	}
	m, ok := md[field].(map[string]any)
	if !ok {
		if md[field] != nil {
			return fmt.Errorf("metadata.%s: want an object, got %s", field, jsonvalue.Describe(md[field]))
		}
		m = make(map[string]any, len(entries))
		md[field] = m
	}
	for _, e := range entries {
		m[e.key] = e.value
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
