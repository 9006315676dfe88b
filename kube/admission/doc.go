// Package admission is a Kubernetes ValidatingAdmissionWebhook
// (admission.k8s.io/v1 AdmissionReview) for ResourceInterpreterCustomizations:
// the API server asks it before it stores one, and refuses a customization
// that would not load, with the message `luainterp interpret --check`
// gives for the same object in a file: a script that does not compile or
// does not define its function, a missing target, an unknown field (with
// a suggestion). Like Karmada's own validating webhook, it also refuses a
// customization that defines an operation which another customization of
// the same target already defines, naming that one.
//
// `luainterp serve --kubeconfig` answers at Path; deploy/ registers it with
// a ValidatingWebhookConfiguration for CREATE and UPDATE.
package admission
