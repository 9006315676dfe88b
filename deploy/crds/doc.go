// Package crds holds the CustomResourceDefinitions of the Karmada kinds
// luainterp reads and writes, written by the project with structural
// schemas: config.karmada.io ResourceInterpreterCustomization and
// ResourceInterpreterWebhookConfiguration, work.karmada.io ResourceBinding,
// ClusterResourceBinding and Work, policy.karmada.io OverridePolicy and
// ClusterOverridePolicy, and cluster.karmada.io Cluster.
//
// The YAML files beside this one are what `kubectl apply -f deploy/crds`
// installs; FS embeds the same files, and Definitions decodes them for a
// program or a test that installs them itself (internal/testenv does).
//
// ResourceInterpreterCustomization's schema keeps the fields it does not
// know under spec, so that a misspelt key reaches luainterp's admission
// webhook, which names it, instead of being pruned silently. The binding,
// policy and cluster kinds keep every field of spec and status.
package crds
