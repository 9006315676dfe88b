// Package deploy holds the manifests that run luainterp in a cluster:
// namespace.yaml, the CRDs of the Karmada kinds (crds/, also a Go package
// the tests install them from), rbac.yaml (what the service account may
// do), luainterp.yaml (the Deployment and its Service) and admission.yaml
// (the ValidatingWebhookConfiguration of ResourceInterpreterCustomizations).
// Its test creates every one of them in a real API server, dry run.
package deploy
