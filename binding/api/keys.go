package api

// API versions and kinds.
const (
	WorkAPIVersion    = "work.karmada.io/v1alpha1"
	BindingAPIVersion = "work.karmada.io/v1alpha2"
	ClusterAPIVersion = "cluster.karmada.io/v1alpha1"
	PolicyAPIVersion  = "policy.karmada.io/v1alpha1"

	KindWork                   = "Work"
	KindResourceBinding        = "ResourceBinding"
	KindClusterResourceBinding = "ClusterResourceBinding"
	KindCluster                = "Cluster"
	KindOverridePolicy         = "OverridePolicy"
	KindClusterOverridePolicy  = "ClusterOverridePolicy"
)

// Labels the pipeline reads or writes.
const (
	ResourceBindingPermanentIDLabel        = "resourcebinding.karmada.io/permanent-id"
	ClusterResourceBindingPermanentIDLabel = "clusterresourcebinding.karmada.io/permanent-id"
	WorkPermanentIDLabel                   = "work.karmada.io/permanent-id"
	ManagedLabel                           = "karmada.io/managed"
)

// Annotations the pipeline reads or writes.
const (
	ResourceBindingNamespaceAnnotation   = "resourcebinding.karmada.io/namespace"
	ResourceBindingNameAnnotation        = "resourcebinding.karmada.io/name"
	ClusterResourceBindingNameAnnotation = "clusterresourcebinding.karmada.io/name"
	ResourceTemplateGenerationAnnotation = "resourcetemplate.karmada.io/generation"
	ResourceTemplateUIDAnnotation        = "resourcetemplate.karmada.io/uid"
	ManagedAnnotationsAnnotation         = "resourcetemplate.karmada.io/managed-annotations"
	ManagedLabelsAnnotation              = "resourcetemplate.karmada.io/managed-labels"
	WorkNameAnnotation                   = "work.karmada.io/name"
	WorkNamespaceAnnotation              = "work.karmada.io/namespace"
	ConflictResolutionAnnotation         = "work.karmada.io/conflict-resolution"
	AppliedOverridesAnnotation           = "policy.karmada.io/applied-overrides"
	AppliedClusterOverridesAnnotation    = "policy.karmada.io/applied-cluster-overrides"
	ConflictResolutionOverwrite          = "overwrite"
	ConflictResolutionAbort              = "abort"
	ExecutionControllerFinalizer         = "karmada.io/execution-controller"
	ExecutionNamespacePrefix             = "karmada-es-"
)

// AppliedPlacementAnnotation holds, on a binding, the JSON of the placement
// of the policy that made it; the taint manager reads its
// clusterTolerations.
const AppliedPlacementAnnotation = "policy.karmada.io/applied-placement"
