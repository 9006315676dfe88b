package argocd

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// HookFinalizer is the finalizer of Argo CD's hooks: an object being
// deleted that holds it still has its health checked.
const HookFinalizer = "argocd.argoproj.io/hook-finalizer"

// HealthError is the error InterpretHealth returns for an object whose
// Argo CD health is Unknown, or whose health script failed: Karmada then
// records the health as Unknown. Err is the script's error, if any.
type HealthError struct {
	Health HealthStatus
	Err    error
}

func (e *HealthError) Error() string {
	return fmt.Sprintf("argo cd health %s: %s", e.Health.Status, e.Health.Message)
}

func (e *HealthError) Unwrap() error { return e.Err }

// HookEnabled reports whether in answers op for gvk: InterpretHealth for
// a kind with a health script.
func (in *Interpreter) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return op == interpreter.InterpretHealth && in.c.HealthScript(gvk.GroupKind()) != nil
}

// Interpret answers InterpretHealth from the kind's health script by
// ObjectHealth, mapped to Karmada's boolean: Healthy, Suspended and the
// empty health are healthy; Progressing, Degraded and Missing are not;
// Unknown (an invalid status and a script error included) is a
// *HealthError, which Karmada records as Unknown. Other operations fail
// with interpreter.ErrNoHook.
func (in *Interpreter) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	resp := interpreter.Response{Operation: req.Operation}
	if req.Operation != interpreter.InterpretHealth || req.Object == nil || !in.HookEnabled(req.Object.GroupVersionKind(), req.Operation) {
		gvk := schema.GroupVersionKind{}
		if req.Object != nil {
			gvk = req.Object.GroupVersionKind()
		}
		return resp, &interpreter.NoHookError{GVK: gvk, Operation: req.Operation}
	}
	h, err := in.ObjectHealth(ctx, req.Object)
	if err != nil {
		return resp, err
	}
	healthy, err := IsHealthy(h)
	resp.Healthy = healthy
	return resp, err
}

// ObjectHealth is the health Argo CD gives obj: Progressing with "Pending
// deletion" for an object being deleted (unless it holds HookFinalizer),
// else Health's; a script's error is Unknown with the error's text, as
// Argo CD records it, returned as a *HealthError.
func (in *Interpreter) ObjectHealth(ctx context.Context, obj *unstructured.Unstructured) (*HealthStatus, error) {
	if obj.GetDeletionTimestamp() != nil && !slices.Contains(obj.GetFinalizers(), HookFinalizer) {
		return &HealthStatus{Status: Progressing, Message: "Pending deletion"}, nil
	}
	h, err := in.Health(ctx, obj)
	if err != nil {
		if errors.Is(err, ErrNoScript) {
			return nil, err
		}
		return &HealthStatus{Status: Unknown, Message: err.Error()}, &HealthError{Health: HealthStatus{Status: Unknown, Message: err.Error()}, Err: err}
	}
	return h, nil
}

// IsHealthy maps an Argo CD health to Karmada's InterpretHealth: true for
// Healthy, Suspended and the empty health, false for Progressing,
// Degraded and Missing, and a *HealthError for Unknown.
func IsHealthy(h *HealthStatus) (bool, error) {
	switch h.Status {
	case Healthy, Suspended, "":
		return true, nil
	case Progressing, Degraded, Missing:
		return false, nil
	}
	return false, &HealthError{Health: *h}
}
