package api

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OverridePolicy (policy.karmada.io/v1alpha1) changes templates of its own
// namespace per cluster. A ClusterOverridePolicy has the same shape, is
// cluster-scoped and applies to templates of every namespace; Kind tells
// them apart.
type OverridePolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OverrideSpec `json:"spec"`
}

// IsCluster reports whether p is a ClusterOverridePolicy.
func (p *OverridePolicy) IsCluster() bool { return p.Kind == KindClusterOverridePolicy }

// OverrideSpec selects resources and says how to change them per cluster.
// TargetCluster and Overriders are the deprecated single-rule form, used
// only when OverrideRules is empty.
type OverrideSpec struct {
	ResourceSelectors []ResourceSelector `json:"resourceSelectors,omitempty"`
	OverrideRules     []RuleWithCluster  `json:"overrideRules,omitempty"`
	TargetCluster     *ClusterAffinity   `json:"targetCluster,omitempty"`
	Overriders        Overriders         `json:"overriders"`
}

// ResourceSelector selects resource templates.
type ResourceSelector struct {
	APIVersion    string                `json:"apiVersion"`
	Kind          string                `json:"kind"`
	Namespace     string                `json:"namespace,omitempty"`
	Name          string                `json:"name,omitempty"`
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
}

// RuleWithCluster applies Overriders to the clusters TargetCluster selects
// (all clusters when nil).
type RuleWithCluster struct {
	TargetCluster *ClusterAffinity `json:"targetCluster,omitempty"`
	Overriders    Overriders       `json:"overriders"`
}

// ClusterAffinity selects clusters by name, labels and fields.
type ClusterAffinity struct {
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
	FieldSelector *FieldSelector        `json:"fieldSelector,omitempty"`
	ClusterNames  []string              `json:"clusterNames,omitempty"`
	ExcludeNames  []string              `json:"exclude,omitempty"`
}

// FieldSelector selects clusters by provider, region and zone.
type FieldSelector struct {
	MatchExpressions []FieldSelectorRequirement `json:"matchExpressions,omitempty"`
}

// FieldSelectorRequirement is one expression of a FieldSelector; Operator is
// one of In, NotIn, Exists, DoesNotExist, Gt and Lt.
type FieldSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Overriders are the changes of one rule. The field order is the order of
// the applied-overrides annotation; the application order is different
// (overrides.Apply documents it).
type Overriders struct {
	Plaintext            []PlaintextOverrider   `json:"plaintext,omitempty"`
	ImageOverrider       []ImageOverrider       `json:"imageOverrider,omitempty"`
	CommandOverrider     []CommandArgsOverrider `json:"commandOverrider,omitempty"`
	ArgsOverrider        []CommandArgsOverrider `json:"argsOverrider,omitempty"`
	LabelsOverrider      []MetadataOverrider    `json:"labelsOverrider,omitempty"`
	AnnotationsOverrider []MetadataOverrider    `json:"annotationsOverrider,omitempty"`
	FieldOverrider       []FieldOverrider       `json:"fieldOverrider,omitempty"`
}

// Overrider operators.
const (
	OperatorAdd     = "add"
	OperatorRemove  = "remove"
	OperatorReplace = "replace"
)

// PlaintextOverrider is one RFC 6902 operation; a nil Value is sent as null.
type PlaintextOverrider struct {
	Path     string          `json:"path"`
	Operator string          `json:"operator"`
	Value    json.RawMessage `json:"value"`
}

// Image components.
const (
	ImageRegistry   = "Registry"
	ImageRepository = "Repository"
	ImageTag        = "Tag"
)

// ImageOverrider changes one component of container images.
type ImageOverrider struct {
	Predicate *ImagePredicate `json:"predicate,omitempty"`
	Component string          `json:"component"`
	Operator  string          `json:"operator"`
	Value     string          `json:"value,omitempty"`
}

// ImagePredicate points at one image field by JSON pointer.
type ImagePredicate struct {
	Path string `json:"path"`
}

// CommandArgsOverrider adds or removes command or args entries of the
// containers named ContainerName.
type CommandArgsOverrider struct {
	ContainerName string   `json:"containerName"`
	Operator      string   `json:"operator"`
	Value         []string `json:"value,omitempty"`
}

// MetadataOverrider adds, replaces or removes labels or annotations.
type MetadataOverrider struct {
	Operator string            `json:"operator"`
	Value    map[string]string `json:"value"`
}

// FieldOverrider patches a JSON or YAML document held in a string field.
type FieldOverrider struct {
	FieldPath string         `json:"fieldPath,omitempty"`
	JSON      []FieldPatchOp `json:"json,omitempty"`
	YAML      []FieldPatchOp `json:"yaml,omitempty"`
}

// FieldPatchOp is one RFC 6902 operation on the sub-document.
type FieldPatchOp struct {
	SubPath  string          `json:"subPath"`
	Operator string          `json:"operator"`
	Value    json.RawMessage `json:"value"`
}
