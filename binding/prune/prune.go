package prune

import (
	"fmt"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// commonMetadata are the metadata fields every kind loses.
var commonMetadata = []string{
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
	"generation", "managedFields", "resourceVersion", "selfLink", "uid",
	"ownerReferences", "finalizers",
}

// kindRules are the rules matched on kind alone.
var kindRules = map[string]func(obj map[string]any) error{
	"Deployment":            pruneDeployment,
	"Job":                   pruneJob,
	"Service":               pruneService,
	"ServiceAccount":        pruneServiceAccount,
	"Secret":                pruneSecret,
	"PersistentVolumeClaim": prunePVC,
}

// Prune removes the fields a member cluster must not receive from obj, in
// place. The error names the kind rule and field that could not be read.
func Prune(obj *unstructured.Unstructured) error {
	if md, ok := obj.Object["metadata"].(map[string]any); ok {
		for _, f := range commonMetadata {
			delete(md, f)
		}
	}
	delete(obj.Object, "status")

	kind := obj.GetKind()
	if rule, ok := kindRules[kind]; ok {
		if err := rule(obj.Object); err != nil {
			return fmt.Errorf("prune %s: %w", kind, err)
		}
	}
	if kind == "Job" {
		unstructured.RemoveNestedField(obj.Object, "spec", "ttlSecondsAfterFinished")
	}
	return nil
}

func pruneDeployment(obj map[string]any) error {
	return deleteAnnotations(obj, "deployment.kubernetes.io/revision", "deployment.kubernetes.io/revision-history")
}

// jobSelectorLabels and jobTemplateLabels are the labels the Job controller
// generates, which name the Job's uid in the control plane.
var (
	jobSelectorLabels = []string{"controller-uid", "batch.kubernetes.io/controller-uid"}
	jobTemplateLabels = []string{"controller-uid", "job-name", "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name"}
)

func pruneJob(obj map[string]any) error {
	manual, found, err := unstructured.NestedBool(obj, "spec", "manualSelector")
	if err != nil {
		return err
	}
	if found && manual {
		return nil
	}
	var job batchv1.Job
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, &job); err != nil {
		return fmt.Errorf("decode as batch/v1 Job: %w", err)
	}
	if err := deleteStringMapKeys(obj, jobSelectorLabels, "spec", "selector", "matchLabels"); err != nil {
		return err
	}
	return deleteStringMapKeys(obj, jobTemplateLabels, "spec", "template", "metadata", "labels")
}

func pruneService(obj map[string]any) error {
	ip, found, err := unstructured.NestedString(obj, "spec", "clusterIP")
	if err != nil || !found || ip == "None" {
		return err
	}
	unstructured.RemoveNestedField(obj, "spec", "clusterIP")
	unstructured.RemoveNestedField(obj, "spec", "clusterIPs")
	return nil
}

// pruneServiceAccount drops the token secrets named <sa>-token-*. Like
// Karmada, the scan does not look again at the entry that moves into a
// removed entry's slot, so of two adjacent token secrets the second stays.
func pruneServiceAccount(obj map[string]any) error {
	secrets, found, err := unstructured.NestedSlice(obj, "secrets")
	if err != nil || !found || len(secrets) == 0 {
		return err
	}
	name, _, _ := unstructured.NestedString(obj, "metadata", "name")
	prefix := name + "-token-"
	for i := 0; i < len(secrets); i++ {
		entry, ok := secrets[i].(map[string]any)
		if !ok {
			return fmt.Errorf(".secrets[%d]: want an object, got %s", i, jsonvalue.Describe(secrets[i]))
		}
		secretName, ok := entry["name"].(string)
		if !ok {
			return fmt.Errorf(".secrets[%d].name: want a string, got %s", i, jsonvalue.Describe(entry["name"]))
		}
		if strings.HasPrefix(secretName, prefix) {
			secrets = append(secrets[:i], secrets[i+1:]...)
		}
	}
	return unstructured.SetNestedSlice(obj, secrets, "secrets")
}

func pruneSecret(obj map[string]any) error {
	if t, _, _ := unstructured.NestedString(obj, "type"); t != "kubernetes.io/service-account-token" {
		return nil
	}
	if err := deleteAnnotations(obj, "kubernetes.io/service-account.uid"); err != nil {
		return err
	}
	obj["data"] = nil
	return nil
}

func prunePVC(obj map[string]any) error {
	const selectedNode = "volume.kubernetes.io/selected-node"
	annotations, found, err := unstructured.NestedStringMap(obj, "metadata", "annotations")
	if err != nil || !found || annotations[selectedNode] == "" {
		return err
	}
	return deleteAnnotations(obj, selectedNode)
}

func deleteAnnotations(obj map[string]any, keys ...string) error {
	return deleteStringMapKeys(obj, keys, "metadata", "annotations")
}

// deleteStringMapKeys deletes keys from the string map at path, if the map
// is there. A map left empty stays as {}.
func deleteStringMapKeys(obj map[string]any, keys []string, path ...string) error {
	if m, ok := stringMapAt(obj, path); ok {
		for _, k := range keys {
			delete(m, k)
		}
		return nil
	}
	m, found, err := unstructured.NestedStringMap(obj, path...)
	if err != nil || !found {
		return err
	}
	for _, k := range keys {
		delete(m, k)
	}
	return unstructured.SetNestedStringMap(obj, m, path...)
}

// stringMapAt returns the map at path when every step is an object and
// every value of the map a string; otherwise unstructured's accessors
// tell what is missing or wrong.
func stringMapAt(obj map[string]any, path []string) (map[string]any, bool) {
	m := obj
	for _, field := range path {
		next, ok := m[field].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	for _, v := range m {
		if _, ok := v.(string); !ok {
			return nil, false
		}
	}
	return m, true
}
