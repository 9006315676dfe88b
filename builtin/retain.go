package builtin

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The Retain handlers copy the fields a member cluster owns from observed
// into desired, which they own (a copy unless the request is Owned),
// copying what they take from observed. All but Pod's edit the
// unstructured desired in place (docs/builtin.md §2.4).

const (
	retainReplicasLabel = "resourcetemplate.karmada.io/retain-replicas"
	serviceAccountToken = string(corev1.SecretTypeServiceAccountToken)
)

// retainDeployment keeps the member's spec.replicas when desired carries
// the label resourcetemplate.karmada.io/retain-replicas: "true".
func retainDeployment(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if label(desired, retainReplicasLabel) != "true" {
		return desired, nil
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
func retainJob(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	retained := desired
	for _, path := range [][]string{
		{"spec", "selector", "matchLabels"},
		{"spec", "template", "metadata", "labels"},
	} {
		labels, found, err := unstructured.NestedStringMap(observed.Object, path...)
		if err != nil {
			return nil, err
		}
		if found {
			if err := unstructured.SetNestedStringMap(retained.Object, labels, path...); err != nil {
				return nil, err
			}
		}
	}
	return retained, nil
}

// retainService keeps the member's healthCheckNodePort and clusterIP.
func retainService(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	retained := desired
	port, found, err := nestedInt64(observed.Object, "spec", "healthCheckNodePort")
	if err != nil {
		return nil, err
	}
	if found && port > 0 {
		if err := unstructured.SetNestedField(retained.Object, port, "spec", "healthCheckNodePort"); err != nil {
			return nil, err
		}
	}
	return retainString(retained, observed, "spec", "clusterIP")
}

// retainPersistentVolumeClaim keeps the member's spec.volumeName.
func retainPersistentVolumeClaim(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return retainString(desired, observed, "spec", "volumeName")
}

// retainPersistentVolume copies the member's spec.claimRef wholesale, an
// explicit null included.
func retainPersistentVolume(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	claimRef, found, err := unstructured.NestedFieldNoCopy(observed.Object, "spec", "claimRef")
	if err != nil {
		return nil, err
	}
	if !found {
		return desired, nil
	}
	return withField(desired, claimRef, "spec", "claimRef")
}

// retainSecret keeps the member's data of a service-account token Secret.
func retainSecret(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if desired.Object["type"] != serviceAccountToken {
		return desired, nil
	}
	data, found, err := unstructured.NestedMap(observed.Object, "data")
	if err != nil {
		return nil, err
	}
	if !found {
		return desired, nil
	}
	return withField(desired, data, "data")
}

// retainString copies observed's string field at path into retained when
// it is non-empty.
func retainString(retained, observed *unstructured.Unstructured, path ...string) (*unstructured.Unstructured, error) {
	value, found, err := unstructured.NestedString(observed.Object, path...)
	if err != nil {
		return nil, err
	}
	if found && value != "" {
		if err := unstructured.SetNestedField(retained.Object, value, path...); err != nil {
			return nil, err
		}
	}
	return retained, nil
}

// withField sets a copy of value at path of obj and returns obj.
func withField(obj *unstructured.Unstructured, value any, path ...string) (*unstructured.Unstructured, error) {
	if err := unstructured.SetNestedField(obj.Object, value, path...); err != nil {
		return nil, err
	}
	return obj, nil
}

// retainServiceAccount merges the member's secrets and imagePullSecrets
// into desired's: desired's entries, then each observed entry whose name
// is new. Both empty gives an explicit null.
func retainServiceAccount(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	retained := desired
	for _, field := range []string{"secrets", "imagePullSecrets"} {
		merged, err := mergeReferences(retained.Object[field], observed.Object[field], field)
		if err != nil {
			return nil, err
		}
		retained.Object[field] = merged
	}
	return retained, nil
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
