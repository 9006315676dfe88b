package argocd

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Fields an action sets from the clock, by kind: an action test takes
// the expected object's value for them when both sides have them, as
// Argo CD's action tests pin them.
var pinned = func() map[string][][]string {
	restartedAt := []string{"spec", "template", "metadata", "annotations", "kubectl.kubernetes.io/restartedAt"}
	annotation := func(name string) []string { return []string{"metadata", "annotations", name} }
	flux := [][]string{annotation("reconcile.fluxcd.io/requestedAt")}
	m := map[string][][]string{
		"apps/DaemonSet":      {restartedAt},
		"apps/StatefulSet":    {restartedAt},
		"apps/Deployment":     {restartedAt, {"status"}, {"metadata", "generation"}, {"metadata", "creationTimestamp"}},
		"argoproj.io/Rollout": {{"spec", "restartAt"}},
		"argoproj.io/Workflow": {{"metadata", "resourceVersion"}, {"metadata", "uid"},
			annotation("workflows.argoproj.io/scheduled-time"), {"metadata", "labels", "workflows.argoproj.io/scheduled-time"}},
		"external-secrets.io/ExternalSecret": {annotation("force-sync")},
		"external-secrets.io/PushSecret":     {annotation("force-sync")},
		"postgresql.cnpg.io/Cluster": {annotation("cnpg.io/reloadedAt"), annotation("kubectl.kubernetes.io/restartedAt"),
			{"status", "targetPrimaryTimestamp"}},
	}
	for _, k := range []string{
		"helm.toolkit.fluxcd.io/HelmRelease", "source.toolkit.fluxcd.io/Bucket", "source.toolkit.fluxcd.io/GitRepository",
		"source.toolkit.fluxcd.io/HelmChart", "source.toolkit.fluxcd.io/HelmRepository", "source.toolkit.fluxcd.io/OCIRepository",
		"image.toolkit.fluxcd.io/ImageRepository", "image.toolkit.fluxcd.io/ImageUpdateAutomation",
		"kustomize.toolkit.fluxcd.io/Kustomization", "notification.toolkit.fluxcd.io/Receiver",
	} {
		m[k] = flux
	}
	return m
}()

// pin gives actual the expected object's value of every clock field of
// its kind that both hold.
func pin(expected, actual map[string]any) {
	gk := (&unstructured.Unstructured{Object: actual}).GroupVersionKind().GroupKind()
	for _, path := range pinned[Key(gk)] {
		want, ok, _ := unstructured.NestedFieldNoCopy(expected, path...)
		if !ok {
			continue
		}
		if _, ok, _ := unstructured.NestedFieldNoCopy(actual, path...); ok {
			_ = unstructured.SetNestedField(actual, want, path...)
		}
	}
}
