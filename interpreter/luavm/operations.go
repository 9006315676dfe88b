package luavm

import (
	"context"
	"encoding/json"
	"fmt"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// The operations. Each runs the operation's global function of s (see
// the interpreter package doc for the contract) and validates what it
// returns; every error is an *interpreter.ScriptError.

// GetReplicas runs GetReplicas(obj) and returns the replica count (a whole
// number from 0 to 2147483647) and the requirements (nil for nil).
func (e *Engine) GetReplicas(ctx context.Context, s *Script, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	var replicas int32
	var req *interpreter.ReplicaRequirements
	err := e.session(ctx, s, interpreter.InterpretReplica, func(st *state) error {
		res, err := st.callWith(interpreter.InterpretReplica, 2, obj)
		if err != nil {
			return err
		}
		if replicas, err = replicaCount(res[0]); err != nil {
			return resultErr("replica", err)
		}
		if req, err = requirementsResult(st.lazy, res[1]); err != nil {
			return resultErr("requires", err)
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return replicas, req, nil
}

// ReviseReplica runs ReviseReplica(obj, replicas) and returns the revised object.
func (e *Engine) ReviseReplica(ctx context.Context, s *Script, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	return run(ctx, e, s, interpreter.ReviseReplica, objectResult(newEmptyRefs(obj)), obj, replicas)
}

// Retain runs Retain(desired, observed) and returns the retained object.
func (e *Engine) Retain(ctx context.Context, s *Script, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return run(ctx, e, s, interpreter.Retain, objectResult(newEmptyRefs(desired, observed)), desired, observed)
}

// AggregateStatus runs AggregateStatus(obj, items), items being an array of
// tables with the JSON fields of interpreter.AggregatedStatusItem (status
// decoded to a table), and returns the object it returns.
func (e *Engine) AggregateStatus(ctx context.Context, s *Script, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	list, err := statusItems(items)
	if err != nil {
		return nil, scriptError(s, interpreter.AggregateStatus, 0, fmt.Errorf("converting the status items: %w", err))
	}
	return run(ctx, e, s, interpreter.AggregateStatus, objectResult(nil), obj, list)
}

// GetComponents runs GetComponents(obj) and returns the components.
func (e *Engine) GetComponents(ctx context.Context, s *Script, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	return run(ctx, e, s, interpreter.InterpretComponent, componentsResult, obj)
}

// ReflectStatus runs ReflectStatus(obj) and returns its table as JSON (nil for nil).
func (e *Engine) ReflectStatus(ctx context.Context, s *Script, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return run(ctx, e, s, interpreter.InterpretStatus, statusResult, obj)
}

// InterpretHealth runs InterpretHealth(obj), which must return a boolean.
func (e *Engine) InterpretHealth(ctx context.Context, s *Script, obj *unstructured.Unstructured) (bool, error) {
	return run(ctx, e, s, interpreter.InterpretHealth, healthResult, obj)
}

// GetDependencies runs GetDependencies(obj) and returns the references,
// each of which needs an apiVersion and a kind.
func (e *Engine) GetDependencies(ctx context.Context, s *Script, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	return run(ctx, e, s, interpreter.InterpretDependency, dependenciesResult, obj)
}

// run calls op's function of s with args and converts its one result.
func run[T any](ctx context.Context, e *Engine, s *Script, op interpreter.Operation, convert func(*lazyTables, lua.LValue) (T, error), args ...any) (T, error) {
	var out T
	err := e.session(ctx, s, op, func(st *state) error {
		res, err := st.callWith(op, 1, args...)
		if err != nil {
			return err
		}
		if out, err = convert(st.lazy, res[0]); err != nil {
			return resultErr(op.ResultNames()[0], err)
		}
		return nil
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// callWith converts Go arguments to Lua and calls the operation's function.
func (st *state) callWith(op interpreter.Operation, nret int, args ...any) ([]lua.LValue, error) {
	largs := make([]lua.LValue, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case *unstructured.Unstructured:
			if a == nil {
				return nil, fmt.Errorf("argument %d: no object given", i+1)
			}
			largs[i] = st.lazyTable(a.Object)
		case int64:
			largs[i] = luaNumber(float64(a))
		default:
			v, err := st.value(a)
			if err != nil {
				return nil, fmt.Errorf("converting argument %d: %w", i+1, err)
			}
			largs[i] = v
		}
	}
	return st.call(op, nret, largs...)
}

// statusItems lays out the status items as Lua will see them: JSON field
// names, empty fields left out, the raw status decoded.
func statusItems(items []interpreter.AggregatedStatusItem) ([]any, error) {
	list := make([]any, len(items))
	statuses := jsonDecoder{shareKeys: true}
	for i, item := range items {
		m := map[string]any{"clusterName": item.ClusterName}
		if item.Status != nil {
			raw := item.Status.Raw
			if len(raw) == 0 && item.Status.Object != nil {
				var err error
				if raw, err = json.Marshal(item.Status.Object); err != nil {
					return nil, fmt.Errorf("[%d].status: %w", i, err)
				}
			}
			if len(raw) > 0 {
				status, err := statuses.decode(raw)
				if err != nil {
					return nil, fmt.Errorf("[%d].status: %w", i, err)
				}
				if status != nil {
					m["status"] = status
				}
			}
		}
		if item.Applied {
			m["applied"] = true
		}
		if item.AppliedMessage != "" {
			m["appliedMessage"] = item.AppliedMessage
		}
		if item.Health != "" {
			m["health"] = string(item.Health)
		}
		list[i] = m
	}
	return list, nil
}
