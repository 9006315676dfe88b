package admission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

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
	limits   Limits
	gate     *gate
	metrics  *Metrics // nil: not counted
}

// New returns a Validator vetting scripts on engine (luavm.Vet: nothing
// is kept compiled, and a script runs only when its syntax tree cannot
// tell whether it loads). Give it an engine of its own, not the one that
// serves: a few states, a short deadline, a run rate (luavm.WithRunRate),
// so that what a review sends never runs where a tenant's calls do.
func New(engine *luavm.Engine, opts ...Option) (*Validator, error) {
	v := &Validator{engine: engine, limits: DefaultLimits(), log: slog.New(slog.DiscardHandler),
		existing: func() []*customization.Customization { return nil }}
	for _, opt := range opts {
		opt(v)
	}
	if err := v.limits.Validate(); err != nil {
		return nil, fmt.Errorf("admission limits: %w", err)
	}
	v.gate = newGate(v.limits)
	return v, nil
}

// ServeHTTP answers a POSTed AdmissionReview with the review's response,
// or at once with HTTP 429 or 503 and Retry-After when the review is
// past the Validator's limits.
func (v *Validator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "admission reviews are POSTed", http.StatusMethodNotAllowed)
		return
	}
	release, refused := v.gate.enter(r.Context())
	if refused != nil {
		v.refuse(w, r, refused)
		return
	}
	defer release()
	start := time.Now()
	review, err := decode(w, r)
	if err != nil {
		v.metrics.count(ResultInvalid)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := v.review(r.Context(), review.Request)
	v.metrics.observe(time.Since(start).Seconds())
	if err != nil {
		v.refuse(w, r, &refusal{ResultRateLimited, time.Second, err.Error()})
		return
	}
	if !resp.Allowed {
		v.metrics.count(ResultDenied)
		v.log.Info("admission denied", "name", review.Request.Name, "operation", review.Request.Operation,
			"user", review.Request.UserInfo.Username, "caller", caller(r), "reason", resp.Result.Message)
	} else {
		v.metrics.count(ResultAllowed)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Response: resp,
	})
}

// refuse answers a review that was not checked.
func (v *Validator) refuse(w http.ResponseWriter, r *http.Request, why *refusal) {
	v.metrics.count(why.result)
	v.log.Warn("admission review refused", "result", why.result, "caller", caller(r), "reason", why.message)
	w.Header().Set("Retry-After", strconv.Itoa(int(max(1, math.Ceil(why.retryAfter.Seconds())))))
	code := http.StatusServiceUnavailable
	if why.result == ResultRateLimited {
		code = http.StatusTooManyRequests
	}
	http.Error(w, why.message, code)
}

// caller names who sent r: the subject of its verified client
// certificate, else its address. (A review's userInfo is what its body
// says.)
func caller(r *http.Request) string {
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 && len(r.TLS.VerifiedChains[0]) > 0 {
		return r.TLS.VerifiedChains[0][0].Subject.String()
	}
	return r.RemoteAddr
}

// decode reads the AdmissionReview of r, at most maxBody bytes.
func decode(w http.ResponseWriter, r *http.Request) (*admissionv1.AdmissionReview, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("reading the admission review: %w", err)
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.Unmarshal(body, review); err != nil {
		return nil, fmt.Errorf("decoding the admission review: %w", err)
	}
	if review.Request == nil {
		return nil, errors.New("admission review: no request")
	}
	return review, nil
}

// Review decides on one request: CREATE and UPDATE of a
// ResourceInterpreterCustomization are checked, other operations allowed.
// A script that should run to tell whether it loads, past the engine's
// run rate, is denied as not checked (ServeHTTP answers HTTP 429).
func (v *Validator) Review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp, err := v.review(ctx, req)
	if err != nil {
		return deny(&admissionv1.AdmissionResponse{UID: req.UID}, err.Error())
	}
	return resp
}

// review is Review, with an error matching interpreter.ErrOverloaded
// instead of a response when a script could not be checked.
func (v *Validator) review(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return resp, nil
	}
	if req.Kind.Kind != customization.Kind {
		return deny(resp, fmt.Sprintf("luainterp validates %s only, not %s: check the rules of the ValidatingWebhookConfiguration", customization.Kind, req.Kind.Kind)), nil
	}
	problems, warnings, err := v.check(ctx, req.Object.Raw)
	if err != nil {
		return nil, err
	}
	resp.Warnings = warnings
	if len(problems) > 0 {
		return deny(resp, strings.Join(problems, "; ")), nil
	}
	return resp, nil
}

func deny(resp *admissionv1.AdmissionResponse, message string) *admissionv1.AdmissionResponse {
	resp.Allowed = false
	resp.Result = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity,
		Reason: metav1.StatusReasonInvalid, Message: message}
	return resp
}

// check returns what is wrong with the customization in raw (JSON), each
// problem as `interpret --check` words it, and the warnings of loading
// it; or an error matching interpreter.ErrOverloaded when a script could
// not be checked.
func (v *Validator) check(ctx context.Context, raw []byte) (problems, warnings []string, err error) {
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(raw); err != nil {
		return []string{"decoding the object: " + err.Error()}, nil, nil
	}
	data, err := source.Manifest(obj)
	if err != nil {
		return []string{"encoding the object: " + err.Error()}, nil, nil
	}
	set, _ := customization.Parse(source.ObjectName(customization.Kind, obj.GetName()), data)
	for _, w := range set.Warnings {
		warnings = append(warnings, w.String())
	}
	for _, rule := range customization.Check(ctx, v.engine, set) {
		if rule.Verdict == customization.Fail {
			if errors.Is(rule.Err, interpreter.ErrOverloaded) {
				return nil, nil, fmt.Errorf("not checked: %w", rule.Err)
			}
			problems = append(problems, strings.ReplaceAll(rule.Err.Error(), "\n", "; "))
		}
	}
	if len(problems) == 0 && len(set.Customizations) == 1 {
		for _, e := range customization.Overlaps(set.Customizations[0], v.existing()) {
			problems = append(problems, e.Error())
		}
	}
	return problems, warnings, nil
}
