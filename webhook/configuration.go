package webhook

import (
	"slices"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// The bounds of ResourceInterpreterWebhook.TimeoutSeconds.
const (
	DefaultTimeoutSeconds = 10
	MaxTimeoutSeconds     = 30
)

// WildcardAll matches every operation, group, version or kind in a rule.
const WildcardAll = "*"

// ResourceInterpreterWebhookConfiguration says which webhooks interpret
// which kinds of objects, and how to reach them.
type ResourceInterpreterWebhookConfiguration struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Webhooks are consulted, with those of every other configuration, in
	// the order of the string "<configuration name>/<webhook name>" (not
	// in list order): the first whose rules match answers.
	Webhooks []ResourceInterpreterWebhook `json:"webhooks"`
}

// ResourceInterpreterWebhook is one webhook and the objects it interprets.
type ResourceInterpreterWebhook struct {
	// Name identifies the webhook: a fully qualified name such as
	// "workloads.example.com".
	Name string `json:"name"`
	// ClientConfig says how to reach the webhook: a URL or a Kubernetes
	// service, and the CA bundle that signs its serving certificate.
	ClientConfig admissionregistrationv1.WebhookClientConfig `json:"clientConfig"`
	// Rules say which operations on which kinds the webhook answers.
	Rules []RuleWithOperations `json:"rules,omitempty"`
	// TimeoutSeconds bounds one call (1 to 30; DefaultTimeoutSeconds when nil).
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
	// InterpreterContextVersions are the ResourceInterpreterContext
	// versions the webhook accepts, in order of preference; must include "v1alpha1".
	InterpreterContextVersions []string `json:"interpreterContextVersions"`
}

// RuleWithOperations is a set of operations and the kinds they apply to.
type RuleWithOperations struct {
	// Operations are wire names (InterpretReplica, ...) or "*" for all.
	Operations []string `json:"operations"`
	Rule       `json:",inline"`
}

// Rule selects kinds by API group, version and kind; "*" matches any.
type Rule struct {
	APIGroups   []string `json:"apiGroups"`   // "" is the core group
	APIVersions []string `json:"apiVersions"` // versions without the group, e.g. "v1"
	Kinds       []string `json:"kinds"`
}

// Matches reports whether the rule selects op on objects of kind gvk.
func (r RuleWithOperations) Matches(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return slices.ContainsFunc(r.Operations, func(o string) bool { return o == WildcardAll || o == op.String() }) &&
		matchesOrWildcard(r.APIGroups, gvk.Group) &&
		matchesOrWildcard(r.APIVersions, gvk.Version) &&
		matchesOrWildcard(r.Kinds, gvk.Kind)
}

// Matches reports whether any of the webhook's rules selects op on gvk.
func (w *ResourceInterpreterWebhook) Matches(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return slices.ContainsFunc(w.Rules, func(r RuleWithOperations) bool { return r.Matches(gvk, op) })
}

// Timeout returns TimeoutSeconds, or DefaultTimeoutSeconds when it is unset.
func (w *ResourceInterpreterWebhook) Timeout() int32 {
	if w.TimeoutSeconds == nil {
		return DefaultTimeoutSeconds
	}
	return *w.TimeoutSeconds
}

func matchesOrWildcard(values []string, v string) bool {
	return slices.ContainsFunc(values, func(x string) bool { return x == WildcardAll || x == v })
}
