package client

import (
	"cmp"
	"context"
	"fmt"
	"slices"

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

func (l *Layer) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return l.hookFor(gvk, op) != nil
}

// Interpret runs req on the first webhook whose rules match.
func (l *Layer) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
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
