package webhook

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/luainterp/luainterp/interpreter"
)

// AcceptedContextVersions are the ResourceInterpreterContext versions
// luainterp sends; a webhook must accept one of them.
var AcceptedContextVersions = []string{Version}

// Validate checks the configuration as Karmada's API server would, and
// returns every problem with its field path. Unlike Karmada it also
// accepts http:// URLs, for webhooks on the same host (a sidecar).
func (c *ResourceInterpreterWebhookConfiguration) Validate() field.ErrorList {
	var errs field.ErrorList
	if c.APIVersion != APIVersion {
		errs = append(errs, field.NotSupported(field.NewPath("apiVersion"), c.APIVersion, []string{APIVersion}))
	}
	if c.Kind != ConfigurationKind {
		errs = append(errs, field.NotSupported(field.NewPath("kind"), c.Kind, []string{ConfigurationKind}))
	}
	if c.Name == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	} else {
		for _, msg := range validation.IsDNS1123Subdomain(c.Name) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), c.Name, msg))
		}
	}
	names := map[string]bool{}
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		path := field.NewPath("webhooks").Index(i)
		if names[w.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), w.Name))
		}
		names[w.Name] = true
		errs = append(errs, w.validate(path)...)
	}
	return errs
}

func (w *ResourceInterpreterWebhook) validate(path *field.Path) field.ErrorList {
	errs := validation.IsFullyQualifiedName(path.Child("name"), w.Name)
	errs = append(errs, validateClientConfig(path.Child("clientConfig"), &w.ClientConfig)...)
	for i, r := range w.Rules {
		errs = append(errs, r.validate(path.Child("rules").Index(i))...)
	}
	if t := w.TimeoutSeconds; t != nil && (*t < 1 || *t > MaxTimeoutSeconds) {
		errs = append(errs, field.Invalid(path.Child("timeoutSeconds"), *t, fmt.Sprintf("must be between 1 and %d seconds", MaxTimeoutSeconds)))
	}
	versions := path.Child("interpreterContextVersions")
	switch {
	case len(w.InterpreterContextVersions) == 0:
		errs = append(errs, field.Required(versions, "must include one of "+strings.Join(AcceptedContextVersions, ", ")))
	case !slices.ContainsFunc(w.InterpreterContextVersions, func(v string) bool { return slices.Contains(AcceptedContextVersions, v) }):
		errs = append(errs, field.Invalid(versions, w.InterpreterContextVersions, "must include one of "+strings.Join(AcceptedContextVersions, ", ")))
	}
	return errs
}

func validateClientConfig(path *field.Path, cc *admissionregistrationv1.WebhookClientConfig) field.ErrorList {
	switch {
	case cc.URL == nil && cc.Service == nil:
		return field.ErrorList{field.Required(path, "exactly one of url or service is required")}
	case cc.URL != nil && cc.Service != nil:
		return field.ErrorList{field.Forbidden(path, "exactly one of url or service is allowed, not both")}
	case cc.URL != nil:
		return validateURL(path.Child("url"), *cc.URL)
	}
	var errs field.ErrorList
	svc := cc.Service
	for _, f := range []struct{ name, value string }{{"namespace", svc.Namespace}, {"name", svc.Name}} {
		if f.value == "" {
			errs = append(errs, field.Required(path.Child("service", f.name), ""))
			continue
		}
		for _, msg := range validation.IsDNS1123Label(f.value) {
			errs = append(errs, field.Invalid(path.Child("service", f.name), f.value, msg))
		}
	}
	if svc.Path != nil && !strings.HasPrefix(*svc.Path, "/") {
		errs = append(errs, field.Invalid(path.Child("service", "path"), *svc.Path, "must start with '/'"))
	}
	if svc.Port != nil {
		for _, msg := range validation.IsValidPortNum(int(*svc.Port)) {
			errs = append(errs, field.Invalid(path.Child("service", "port"), *svc.Port, msg))
		}
	}
	return errs
}

func validateURL(path *field.Path, raw string) field.ErrorList {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(path, raw, "not a URL: "+err.Error())}
	case u.Scheme != "https" && u.Scheme != "http":
		return field.ErrorList{field.Invalid(path, raw, "the scheme must be https (or http)")}
	case u.Host == "":
		return field.ErrorList{field.Invalid(path, raw, "the host is missing")}
	case u.User != nil:
		return field.ErrorList{field.Invalid(path, raw, "user information is not allowed")}
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return field.ErrorList{field.Invalid(path, raw, "a fragment is not allowed")}
	case u.RawQuery != "" || strings.Contains(raw, "?"):
		return field.ErrorList{field.Invalid(path, raw, "query parameters are not allowed")}
	}
	return nil
}

var ruleOperations = append([]string{WildcardAll}, operationNames()...)

func operationNames() []string {
	var names []string
	for _, op := range interpreter.Operations() {
		names = append(names, op.String())
	}
	return names
}

func (r RuleWithOperations) validate(path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, op := range r.Operations {
		if !slices.Contains(ruleOperations, op) {
			errs = append(errs, field.NotSupported(path.Child("operations").Index(i), op, ruleOperations))
		}
	}
	errs = append(errs, validateWildcardList(path.Child("operations"), r.Operations)...)
	errs = append(errs, validateWildcardList(path.Child("apiGroups"), r.APIGroups)...)
	errs = append(errs, validateWildcardList(path.Child("apiVersions"), r.APIVersions)...)
	errs = append(errs, validateWildcardList(path.Child("kinds"), r.Kinds)...)
	return errs
}

// validateWildcardList checks that a rule list is not empty and that "*", when present, is alone.
func validateWildcardList(path *field.Path, values []string) field.ErrorList {
	switch {
	case len(values) == 0:
		return field.ErrorList{field.Required(path, "")}
	case len(values) > 1 && slices.Contains(values, WildcardAll):
		return field.ErrorList{field.Invalid(path, values, "if '*' is present, it must be the only value")}
	}
	return nil
}
