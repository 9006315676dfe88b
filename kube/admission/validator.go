package admission

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/source"
)

// Path is where `luainterp serve` answers the admission reviews.
const Path = "/admission/resourceinterpretercustomizations"

// maxBody bounds a review's body; the API server's objects are at most 3 MiB.
const maxBody = 4 << 20

// Validator reviews ResourceInterpreterCustomizations. It is safe for
// concurrent use.
type Validator struct {
	engine   *luavm.Engine
	existing func() []*customization.Customization
	log      *slog.Logger
}

// New returns a Validator compiling scripts on engine. existing returns
// the customizations already stored (a Source's Customizations), which a
// new one may not overlap; nil means none.
func New(engine *luavm.Engine, existing func() []*customization.Customization, log *slog.Logger) *Validator {
	if existing == nil {
		existing = func() []*customization.Customization { return nil }
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Validator{engine: engine, existing: existing, log: log}
}

// ServeHTTP answers a POSTed AdmissionReview with the review's response.
func (v *Validator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "admission reviews are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "reading the admission review: "+err.Error(), http.StatusBadRequest)
		return
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.Unmarshal(body, review); err != nil {
		http.Error(w, "decoding the admission review: "+err.Error(), http.StatusBadRequest)
		return
	}
	if review.Request == nil {
		http.Error(w, "admission review: no request", http.StatusBadRequest)
		return
	}
	resp := v.Review(review.Request)
	if !resp.Allowed {
		v.log.Info("admission denied", "name", review.Request.Name, "operation", review.Request.Operation, "user", review.Request.UserInfo.Username, "reason", resp.Result.Message)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Response: resp,
	})
}

// Review decides on one request: CREATE and UPDATE of a
// ResourceInterpreterCustomization are checked, other operations allowed.
func (v *Validator) Review(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return resp
	}
	if req.Kind.Kind != customization.Kind {
		return deny(resp, fmt.Sprintf("luainterp validates %s only, not %s: check the rules of the ValidatingWebhookConfiguration", customization.Kind, req.Kind.Kind))
	}
	problems, warnings := v.check(req.Object.Raw)
	resp.Warnings = warnings
	if len(problems) > 0 {
		return deny(resp, strings.Join(problems, "; "))
	}
	return resp
}

func deny(resp *admissionv1.AdmissionResponse, message string) *admissionv1.AdmissionResponse {
	resp.Allowed = false
	resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity,
		Reason: metav1.StatusReasonInvalid, Message: message}
	return resp
}

// check returns what is wrong with the customization in raw (JSON), each
// problem as `interpret --check` words it, and the warnings of loading it.
func (v *Validator) check(raw []byte) (problems, warnings []string) {
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(raw); err != nil {
		return []string{"decoding the object: " + err.Error()}, nil
	}
	data, err := source.Manifest(obj)
	if err != nil {
		return []string{"encoding the object: " + err.Error()}, nil
	}
	set, _ := customization.Parse(source.ObjectName(customization.Kind, obj.GetName()), data)
	for _, w := range set.Warnings {
		warnings = append(warnings, w.String())
	}
	for _, rule := range customization.Check(v.engine, set) {
		if rule.Verdict == customization.Fail {
			problems = append(problems, strings.ReplaceAll(rule.Err.Error(), "\n", "; "))
		}
	}
	if len(problems) == 0 && len(set.Customizations) == 1 {
		problems = overlaps(set.Customizations[0], v.existing())
	}
	return problems, warnings
}

// overlaps returns a problem for each operation c defines that another
// customization of c's target (not c's older version) defines too.
func overlaps(c *customization.Customization, existing []*customization.Customization) []string {
	var problems []string
	for _, op := range c.Operations() {
		for _, other := range existing {
			if other.Name == c.Name || other.Target != c.Target {
				continue
			}
			if _, ok := other.Script(op); ok {
				problems = append(problems, fmt.Sprintf("%s: spec.customizations.%s: already defined for %s by customization %q; a kind's operation is defined by one customization only",
					c.Position, op.CustomizationKey(), interpreter.GVKString(c.Target), other.Name))
			}
		}
	}
	return problems
}
