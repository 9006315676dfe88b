// Package deploy holds the manifests that run luainterp beside a Karmada
// control plane, and its tests:
//
//   - namespace.yaml: karmada-system;
//   - crds/: the CRDs of the Karmada kinds (also a Go package the tests
//     install them from);
//   - rbac.yaml: what the webhook server's service account may do;
//   - controller-rbac.yaml: the controller's service account, what it may
//     do, and its Lease;
//   - cert-manager.yaml: a CA and the webhook server's serving certificate;
//   - luainterp.yaml: the webhook server's Deployment and Service;
//   - controller.yaml: the controller's Deployment (two replicas, one
//     leading) and its metrics Service;
//   - controller-sharded.yaml: the same controller as replicas sharing
//     the bindings (--shards), with its Leases' Role, in its place;
//   - admission.yaml: the ValidatingWebhookConfiguration of
//     ResourceInterpreterCustomizations;
//   - interpreter-webhook.yaml: the ResourceInterpreterWebhookConfiguration
//     sending Karmada's interpreter calls for the bundled kinds to luainterp.
//
// The tests create every object in a real API server, dry run with strict
// field validation (cert-manager's Certificate against its upstream CRD),
// ask the API server's authorizer what each service account may and may
// not do, and check that interpreter-webhook.yaml routes exactly the
// operations the bundled scripts define.
package deploy
