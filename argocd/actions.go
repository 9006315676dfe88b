package argocd

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Action is an action a discovery script offers for an object.
type Action struct {
	Name        string        `json:"name"`
	Disabled    bool          `json:"disabled"`
	IconClass   string        `json:"iconClass"`
	DisplayName string        `json:"displayName"`
	Params      []ActionParam `json:"params,omitempty"` // nil when the script gives none, empty when it gives an empty list
}

// ActionParam is a parameter an action takes.
type ActionParam struct {
	Name    string `json:"name"`
	Value   string `json:"value,omitempty"`
	Type    string `json:"type,omitempty"`
	Default string `json:"default,omitempty"`
}

// Operations of an impacted resource.
const (
	OperationCreate = "create"
	OperationPatch  = "patch"
)

// ImpactedResource is one resource an action returns: to create, or to
// patch (the source object).
type ImpactedResource struct {
	Operation string                     `json:"operation"`
	Object    *unstructured.Unstructured `json:"resource"`
}

// ActionResult is what an action returns.
type ActionResult struct {
	// List is true when the script returned the list of impacted
	// resources, false when it returned the modified object.
	List bool `json:"list"`
	// Resources are the impacted resources in order: the modified object
	// as a patch in the old form; none when the script returned an empty
	// table.
	Resources []ImpactedResource `json:"resources"`
}

// Discover runs the discovery scripts of obj's kind (an override's, and
// the tree's when it merges them) and returns the actions by name; of
// two with one name, the override's wins. The error of a kind without
// any matches ErrNoScript.
func (in *Interpreter) Discover(ctx context.Context, obj *unstructured.Unstructured) ([]Action, error) {
	gk := obj.GroupVersionKind().GroupKind()
	var actions []Action
	found := false
	for _, set := range in.c.ActionSets(gk) {
		if set.Discovery == nil {
			continue
		}
		found = true
		res, err := in.run(ctx, set.Discovery, 0, obj, nil, true)
		if err != nil {
			return nil, err
		}
		more, err := actionsOf(set.Discovery, res.Type, res.Value)
		if err != nil {
			return nil, err
		}
		for _, a := range more {
			if !slices.ContainsFunc(actions, func(b Action) bool { return b.Name == a.Name }) {
				actions = append(actions, a)
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: no action discovery for %s", ErrNoScript, Key(gk))
	}
	return actions, nil
}

// actionsOf reads a discovery script's result: a table from action name
// to its settings.
func actionsOf(s *Script, typ string, v any) ([]Action, error) {
	if typ != "table" {
		return nil, notTable(s, typ)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, scriptErr(s, "discovery returned a list, not a table of actions by name")
	}
	actions := make([]Action, 0, len(m))
	for _, name := range sortedKeys(m) {
		a := Action{Name: name}
		settings, ok := m[name].(map[string]any)
		if !ok {
			return nil, scriptErr(s, "action %q: settings are a %T, not a table", name, m[name])
		}
		var err error
		if a.Disabled, err = field[bool](settings, "disabled"); err != nil {
			return nil, scriptErr(s, "action %q: %v", name, err)
		}
		if a.IconClass, err = field[string](settings, "iconClass"); err != nil {
			return nil, scriptErr(s, "action %q: %v", name, err)
		}
		if a.DisplayName, err = field[string](settings, "displayName"); err != nil {
			return nil, scriptErr(s, "action %q: %v", name, err)
		}
		if a.Params, err = paramsOf(settings["params"]); err != nil {
			return nil, scriptErr(s, "action %q: %v", name, err)
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// field returns m[key] as a T, its zero value when absent.
func field[T any](m map[string]any, key string) (T, error) {
	var zero T
	v, ok := m[key]
	if !ok || v == nil {
		return zero, nil
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%s is a %T, not a %T", key, v, zero)
	}
	return t, nil
}

// paramsOf reads an action's params: a list of tables with name, value,
// type and default; an empty table is an empty list.
func paramsOf(v any) ([]ActionParam, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		if len(v) == 0 {
			return []ActionParam{}, nil
		}
	case []any:
		params := make([]ActionParam, 0, len(v))
		for i, e := range v {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("params[%d] is a %T, not a table", i+1, e)
			}
			var p ActionParam
			var err error
			for key, into := range map[string]*string{"name": &p.Name, "value": &p.Value, "type": &p.Type, "default": &p.Default} {
				if *into, err = field[string](m, key); err != nil {
					return nil, fmt.Errorf("params[%d]: %w", i+1, err)
				}
			}
			params = append(params, p)
		}
		return params, nil
	}
	return nil, fmt.Errorf("params is a %T, not a list", v)
}

// RunAction runs the named action of obj's kind with params (Argo CD's
// actionParams: names to values, all strings) and returns what it
// returned. An empty table Argo CD's encoder would write as [] where obj
// held {} is {} in the result (and [] where obj held []); other empty
// tables are left out. The error of an action the kind does not have
// matches ErrNoScript; a script's error is an *interpreter.ScriptError.
func (in *Interpreter) RunAction(ctx context.Context, obj *unstructured.Unstructured, name string, params map[string]string) (*ActionResult, error) {
	gk := obj.GroupVersionKind().GroupKind()
	s := in.c.ActionScript(gk, name)
	if s == nil {
		return nil, fmt.Errorf("%w: no action %q for %s", ErrNoScript, name, Key(gk))
	}
	p := make(map[string]any, len(params))
	for k, v := range params {
		p[k] = v
	}
	res, err := in.run(ctx, s, 0, obj, p, false)
	if err != nil {
		return nil, err
	}
	if res.Type != "table" {
		return nil, notTable(s, res.Type)
	}
	switch v := res.Value.(type) {
	case map[string]any:
		if len(v) == 0 { // [] on Argo CD: nothing to do
			return &ActionResult{List: true, Resources: []ImpactedResource{}}, nil
		}
		return &ActionResult{Resources: []ImpactedResource{{Operation: OperationPatch, Object: &unstructured.Unstructured{Object: v}}}}, nil
	case []any:
		return impactedResources(s, v)
	}
	return nil, notTable(s, res.Type)
}

// impactedResources reads the list form: {operation = "create" | "patch",
// resource = <object>} items; an item without an operation is skipped.
func impactedResources(s *Script, items []any) (*ActionResult, error) {
	out := &ActionResult{List: true, Resources: []ImpactedResource{}}
	for i, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, scriptErr(s, "impacted resource %d is a %T, not a table", i+1, item)
		}
		op, _ := m["operation"].(string)
		if op == "" {
			continue
		}
		if op != OperationCreate && op != OperationPatch {
			return nil, scriptErr(s, "unsupported operation: %q", op)
		}
		res, ok := m["resource"].(map[string]any)
		if !ok {
			return nil, scriptErr(s, "impacted resource %d: resource is a %T, not an object", i+1, m["resource"])
		}
		out.Resources = append(out.Resources, ImpactedResource{Operation: op, Object: &unstructured.Unstructured{Object: res}})
	}
	return out, nil
}
