package status

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/interpreter"
)

// Loop is the pure core of the status controller: what one pass over a
// binding computes, before anything is written. It holds the interpreter
// that answers AggregateStatus and is safe for concurrent passes.
type Loop struct {
	interp interpreter.Interpreter
}

// New returns a Loop that aggregates templates' statuses with interp
// (typically the *interpreter.Registry of every layer).
func New(interp interpreter.Interpreter) *Loop { return &Loop{interp: interp} }

// Input is what one pass reads about a binding.
type Input struct {
	// Binding names the binding in errors: namespace/name, or name for a
	// ClusterResourceBinding.
	Binding string
	// Resource is the binding's spec.resource.
	Resource api.ObjectReference
	// Current is the binding's status.aggregatedStatus as stored.
	Current []interpreter.AggregatedStatusItem
	// Works are the binding's Works (labelled with its permanent id).
	Works []api.Work
	// Template is the resource template as stored; nil skips the
	// template's half of the pass.
	Template *unstructured.Unstructured
}

// Result is what a pass decided. A controller writes the binding's status
// when StatusChanged, then the template's status when TemplateChanged.
type Result struct {
	// AggregatedStatus is the binding's new status.aggregatedStatus.
	AggregatedStatus []interpreter.AggregatedStatusItem
	// StatusChanged says AggregatedStatus differs from Input.Current
	// (Equal).
	StatusChanged bool
	// Aggregated says the interpreter has an AggregateStatus hook for the
	// template's kind and it ran; without one, the template is left as it
	// is.
	Aggregated bool
	// TemplateStatus is the template's new .status (nil: none), taken
	// from the hook's result (the rest of it is not used); the template's
	// own when no hook ran.
	TemplateStatus any
	// TemplateChanged says TemplateStatus differs from the template's
	// current .status (deep equality).
	TemplateChanged bool
}

// Pass runs one pass of the status loop over a binding: it assembles the
// binding's aggregatedStatus from its Works (Assemble) and compares it
// with the stored one; then, when a template is given and the interpreter
// has an AggregateStatus hook for its kind, it calls the hook with the
// items (the stored ones when they did not change, as Karmada passes the
// binding's status as it then holds it) and compares the .status of the
// result with the template's.
//
// An error from Assemble is a *WorkError and the Result is empty; an
// error of the hook is a *TemplateError and the Result still holds the
// binding's half, which a controller may write.
func (l *Loop) Pass(ctx context.Context, in Input) (Result, error) {
	var res Result
	items, err := Assemble(in.Binding, in.Resource, in.Works)
	if err != nil {
		return res, err
	}
	res.AggregatedStatus = items
	res.StatusChanged = !Equal(in.Current, items)
	if in.Template == nil {
		return res, nil
	}
	res.TemplateStatus = in.Template.Object["status"]
	if !l.interp.HookEnabled(in.Template.GroupVersionKind(), interpreter.AggregateStatus) {
		return res, nil
	}
	given := in.Current
	if res.StatusChanged {
		given = items
	}
	resp, err := l.interp.Interpret(ctx, interpreter.Request{
		Operation: interpreter.AggregateStatus, Object: in.Template, StatusItems: given, Shared: true,
	})
	if err != nil {
		return res, &TemplateError{Binding: in.Binding, Template: describe(in.Template), Err: err}
	}
	res.Aggregated = true
	res.TemplateStatus = nil
	if resp.Object != nil {
		res.TemplateStatus = resp.Object.Object["status"]
	}
	res.TemplateChanged = !reflect.DeepEqual(in.Template.Object["status"], res.TemplateStatus)
	return res, nil
}

// Template returns a copy of tmpl with the pass's new status, as a
// controller writes it with UpdateStatus: tmpl itself is not modified,
// and the status is TemplateStatus itself, not a copy.
func (r Result) Template(tmpl *unstructured.Unstructured) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: make(map[string]any, len(tmpl.Object)+1)}
	for k, v := range tmpl.Object {
		if k != "status" {
			out.Object[k] = runtime.DeepCopyJSONValue(v)
		}
	}
	if r.TemplateStatus != nil {
		out.Object["status"] = r.TemplateStatus
	}
	return out
}

// describe names an object in errors: "Kind namespace/name" or "Kind name".
func describe(obj *unstructured.Unstructured) string {
	name := obj.GetName()
	if ns := obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return obj.GetKind() + " " + name
}
