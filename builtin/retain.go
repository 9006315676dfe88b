package builtin

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The Retain handlers copy the fields a member cluster owns from observed
// into the draft of desired (draft.go), copying what they take from
// observed. All but Pod's write the unstructured desired through the
// draft, which copies only the written paths of a Shared request; Pod's
// is a typed re-encode, a new object whatever the request
// (docs/builtin.md §2.4).

const (
	retainReplicasLabel = "resourcetemplate.karmada.io/retain-replicas"
	serviceAccountToken = string(corev1.SecretTypeServiceAccountToken)
)

// retainDeployment keeps the member's spec.replicas when desired carries
// the label resourcetemplate.karmada.io/retain-replicas: "true".
func retainDeployment(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if label(desired.obj, retainReplicasLabel) != "true" {
		return desired.obj, nil
	}
	replicas, found, err := nestedInt64(observed.Object, "spec", "replicas")
	if err != nil {
		return nil, fmt.Errorf("retaining replicas: observed %w", err)
	}
	if !found {
		return nil, errors.New("retaining replicas: the observed object has no spec.replicas")
	}
	return withField(desired, replicas, "spec", "replicas")
}

// label returns obj's label key as GetLabels reads it, without copying the
// labels: "" when they are not a map of strings and nulls.
func label(obj *unstructured.Unstructured, key string) string {
	v, _, err := unstructured.NestedFieldNoCopy(obj.Object, "metadata", "labels")
	labels, ok := v.(map[string]any)
	if err != nil || !ok {
		return ""
	}
	for _, value := range labels {
		if _, isString := value.(string); !isString && value != nil {
			return ""
		}
	}
	s, _ := labels[key].(string)
	return s
}

// retainJob puts the member's selector and template labels back (the
// controller-uid and job-name labels prune removed).
func retainJob(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	for _, path := range [][]string{
		{"spec", "selector", "matchLabels"},
		{"spec", "template", "metadata", "labels"},
	} {
		labels, found, err := unstructured.NestedStringMap(observed.Object, path...)
		if err != nil {
			return nil, err
		}
		if found {
			if err := desired.set(stringMapValue(labels), path...); err != nil {
				return nil, err
			}
		}
	}
	return desired.obj, nil
}

// stringMapValue returns labels as a JSON object, as
// unstructured.SetNestedStringMap stores them.
func stringMapValue(labels map[string]string) map[string]any {
	m := make(map[string]any, len(labels))
	for k, v := range labels {
		m[k] = v
	}
	return m
}

// retainService keeps the member's healthCheckNodePort and clusterIP.
func retainService(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	port, found, err := nestedInt64(observed.Object, "spec", "healthCheckNodePort")
	if err != nil {
		return nil, err
	}
	if found && port > 0 {
		if err := desired.set(port, "spec", "healthCheckNodePort"); err != nil {
			return nil, err
		}
	}
	return retainString(desired, observed, "spec", "clusterIP")
}

// retainPersistentVolumeClaim keeps the member's spec.volumeName.
func retainPersistentVolumeClaim(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return retainString(desired, observed, "spec", "volumeName")
}

// retainPersistentVolume copies the member's spec.claimRef wholesale, an
// explicit null included.
func retainPersistentVolume(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	claimRef, found, err := unstructured.NestedFieldNoCopy(observed.Object, "spec", "claimRef")
	if err != nil {
		return nil, err
	}
	if !found {
		return desired.obj, nil
	}
	return withField(desired, runtime.DeepCopyJSONValue(claimRef), "spec", "claimRef")
}

// retainSecret keeps the member's data of a service-account token Secret.
func retainSecret(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if desired.obj.Object["type"] != serviceAccountToken {
		return desired.obj, nil
	}
	data, found, err := unstructured.NestedMap(observed.Object, "data")
	if err != nil {
		return nil, err
	}
	if !found {
		return desired.obj, nil
	}
	return withField(desired, data, "data") // NestedMap copied it
}

// retainString copies observed's string field at path into retained when
// it is non-empty.
func retainString(retained draft, observed *unstructured.Unstructured, path ...string) (*unstructured.Unstructured, error) {
	value, found, err := unstructured.NestedString(observed.Object, path...)
	if err != nil {
		return nil, err
	}
	if found && value != "" {
		return withField(retained, value, path...)
	}
	return retained.obj, nil
}

// withField sets value at path of the draft and returns its object.
func withField(d draft, value any, path ...string) (*unstructured.Unstructured, error) {
	if err := d.set(value, path...); err != nil {
		return nil, err
	}
	return d.obj, nil
}

// retainServiceAccount merges the member's secrets and imagePullSecrets
// into desired's: desired's entries, then each observed entry whose name
// is new. Both empty gives an explicit null.
func retainServiceAccount(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	for _, field := range []string{"secrets", "imagePullSecrets"} {
		merged, err := mergeReferences(desired.obj.Object[field], observed.Object[field], field)
		if err != nil {
			return nil, err
		}
		if err := desired.set(merged, field); err != nil {
			return nil, err
		}
	}
	return desired.obj, nil
}

// mergeReferences appends to desired the observed references whose names
// it does not hold yet.
func mergeReferences(desired, observed any, field string) ([]any, error) {
	var merged []any
	seen := map[string]bool{}
	for _, side := range []struct {
		name string
		refs any
	}{{"desired", desired}, {"observed", observed}} {
		if side.refs == nil {
			continue
		}
		refs, ok := side.refs.([]any)
		if !ok {
			return nil, typeError(side.name+" "+field, "a list", side.refs)
		}
		for i, ref := range refs {
			m, _ := ref.(map[string]any)
			name, ok := m["name"].(string)
			if !ok {
				return nil, fmt.Errorf("%s %s[%d]: expected an object with a string name", side.name, field, i)
			}
			if side.name == "observed" && seen[name] {
				continue
			}
			seen[name] = true
			merged = append(merged, runtime.DeepCopyJSONValue(ref))
		}
	}
	return merged, nil
}
