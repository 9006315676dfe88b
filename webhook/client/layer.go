package client

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// Layer answers operations by calling the webhooks whose rules match. It
// is immutable and safe for concurrent use; to reload configurations,
// build a new Layer and Registry.Set it.
type Layer struct {
	hooks []*hook // in the order they are consulted
}

var _ interpreter.Interpreter = (*Layer)(nil)

// New returns a Layer calling the webhooks of configs, consulted in the
// order of "<configuration name>/<webhook name>", as Karmada consults them.
// It fails when a configuration is invalid or a caBundle holds no
// certificate.
func New(configs []*webhook.ResourceInterpreterWebhookConfiguration, opts ...Option) (*Layer, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	l := &Layer{}
	for _, c := range configs {
		if errs := c.Validate(); len(errs) > 0 {
			return nil, fmt.Errorf("configuration %q: %w", c.Name, errs.ToAggregate())
		}
		for i := range c.Webhooks {
			h, err := newHook(c.Name, &c.Webhooks[i], &o)
			if err != nil {
				return nil, fmt.Errorf("configuration %q: webhooks[%d] %q: %w", c.Name, i, c.Webhooks[i].Name, err)
			}
			l.hooks = append(l.hooks, h)
		}
	}
	slices.SortStableFunc(l.hooks, func(a, b *hook) int { return cmp.Compare(a.key, b.key) })
	return l, nil
}

// Webhook returns the name of the webhook that answers op for objects of kind gvk.
func (l *Layer) Webhook(gvk schema.GroupVersionKind, op interpreter.Operation) (string, bool) {
	if h := l.hookFor(gvk, op); h != nil {
		return h.name, true
	}
	return "", false
}

// hookFor returns the first webhook whose rules match, or nil.
func (l *Layer) hookFor(gvk schema.GroupVersionKind, op interpreter.Operation) *hook {
	for _, h := range l.hooks {
		if h.webhook.Matches(gvk, op) {
			return h
		}
	}
	return nil
}

// call runs req on the webhook that answers it.
func (l *Layer) call(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	if req.Object == nil {
		return interpreter.Response{Operation: req.Operation}, fmt.Errorf("%s: no object given", req.Operation)
	}
	gvk := req.Object.GroupVersionKind()
	h := l.hookFor(gvk, req.Operation)
	if h == nil {
		return interpreter.Response{Operation: req.Operation}, &interpreter.NoHookError{GVK: gvk, Operation: req.Operation}
	}
	return h.call(ctx, req)
}

func (l *Layer) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return l.hookFor(gvk, op) != nil
}

func (l *Layer) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.InterpretReplica, Object: obj})
	return resp.Replicas, resp.Requirements, err
}

func (l *Layer) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.ReviseReplica, Object: obj, DesiredReplicas: replicas})
	return resp.Object, err
}

func (l *Layer) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.InterpretComponent, Object: obj})
	return resp.Components, err
}

func (l *Layer) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.Retain, Object: desired, ObservedObject: observed})
	return resp.Object, err
}

func (l *Layer) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: items})
	return resp.Object, err
}

func (l *Layer) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.InterpretStatus, Object: obj})
	return resp.Status, err
}

func (l *Layer) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.InterpretHealth, Object: obj})
	return resp.Healthy, err
}

func (l *Layer) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	resp, err := l.call(ctx, interpreter.Request{Operation: interpreter.InterpretDependency, Object: obj})
	return resp.Dependencies, err
}
