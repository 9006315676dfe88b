package builtin

import (
	"fmt"
	"slices"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/podspec"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// podTemplateDependencies returns the InterpretDependency handler of a
// kind whose pod spec is at path (docs/builtin.md §2.6).
func podTemplateDependencies(path ...string) func(*unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	return func(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
		spec, err := podSpecAt(obj, path...)
		if err != nil {
			return nil, err
		}
		refs, err := podspec.Dependencies(spec, obj.GetNamespace())
		if err != nil {
			return nil, fmt.Errorf("%s.%w", dotted(path), err)
		}
		return refs, nil
	}
}

var podTemplateSpecDependencies = podTemplateDependencies("spec", "template", "spec")

// statefulSetDependencies drops the claims the StatefulSet makes itself
// from its volume claim templates.
func statefulSetDependencies(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	refs, err := podTemplateSpecDependencies(obj)
	if err != nil {
		return nil, err
	}
	templates, _, err := unstructured.NestedSlice(obj.Object, "spec", "volumeClaimTemplates")
	if err != nil {
		return nil, err
	}
	claimed := map[string]bool{}
	for _, t := range templates {
		if m, ok := t.(map[string]any); ok {
			name, _, _ := unstructured.NestedString(m, "metadata", "name")
			claimed[name] = true
		}
	}
	refs = slices.DeleteFunc(refs, func(ref interpreter.DependentObjectReference) bool {
		return ref.Kind == "PersistentVolumeClaim" && claimed[ref.Name]
	})
	if len(refs) == 0 {
		return nil, nil
	}
	return refs, nil
}

// ingressDependencies lists the TLS Secrets, in order, duplicates kept.
func ingressDependencies(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	ingress := &networkingv1.Ingress{}
	if err := toTyped(obj, ingress); err != nil {
		return nil, err
	}
	var refs []interpreter.DependentObjectReference
	for _, tls := range ingress.Spec.TLS {
		refs = append(refs, interpreter.DependentObjectReference{
			APIVersion: "v1", Kind: "Secret", Namespace: ingress.Namespace, Name: tls.SecretName,
		})
	}
	return refs, nil
}

// serviceImportDependencies lists the Service and EndpointSlices a
// ServiceImport derives: derived-<name>.
func serviceImportDependencies(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	derived := "derived-" + obj.GetName()
	return []interpreter.DependentObjectReference{
		{APIVersion: "v1", Kind: "Service", Namespace: obj.GetNamespace(), Name: derived},
		{
			APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice", Namespace: obj.GetNamespace(),
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/service-name": derived}},
		},
	}, nil
}

// validateDependencies checks every reference: a kind and version, a name
// or a valid label selector.
func validateDependencies(refs []interpreter.DependentObjectReference) error {
	var errs []error
	for i, ref := range refs {
		path := field.NewPath("dependencies").Index(i)
		if ref.APIVersion == "" || ref.Kind == "" {
			errs = append(errs, fmt.Errorf("%s: apiVersion and kind must be set", path))
		}
		if ref.Name == "" && ref.LabelSelector == nil {
			errs = append(errs, fmt.Errorf("%s (%s %s): name and labelSelector cannot both be empty", path, ref.APIVersion, ref.Kind))
		}
		if ref.LabelSelector != nil {
			fieldErrs := metav1validation.ValidateLabelSelector(ref.LabelSelector,
				metav1validation.LabelSelectorValidationOptions{}, path.Child("labelSelector"))
			if len(fieldErrs) > 0 {
				errs = append(errs, fieldErrs.ToAggregate())
			}
		}
	}
	return utilerrors.NewAggregate(errs)
}
