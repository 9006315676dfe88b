package scripts

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// Layer is the third-party layer of an interpreter.Registry: it answers
// the operations the bundled customizations define for their kinds. A
// kind's customizations are read and compiled the first time the layer
// is asked about that kind, once; kinds never asked about cost nothing.
// A Layer is safe for concurrent use.
type Layer struct {
	kinds map[schema.GroupVersionKind]*kind
	order []schema.GroupVersionKind
}

var _ interpreter.Interpreter = (*Layer)(nil)

// kind is the bundled customizations of one kind, loaded on first use.
type kind struct {
	gvk    schema.GroupVersionKind
	fsys   fs.FS
	file   string // in fsys
	name   string // the file as messages show it
	engine *luavm.Engine

	once  sync.Once
	layer *customization.Layer
	err   error
}

// Option configures NewLayer.
type Option func(*options)

type options struct {
	fsys fs.FS
	root string
}

// FromFS builds the layer from the tree fsys instead of FS, laid out as
// FS is (<group>/<version>/<Kind>/customizations.yaml); root is the name
// of the tree in messages ("" for none).
func FromFS(fsys fs.FS, root string) Option {
	return func(o *options) { o.fsys, o.root = fsys, root }
}

// NewLayer returns the layer of the bundled customizations (FS), run on
// engine. It only lists the kinds; see Layer for when each is compiled,
// and Load to compile them all at once.
func NewLayer(engine *luavm.Engine, opts ...Option) *Layer {
	o := options{fsys: FS, root: Root}
	for _, opt := range opts {
		opt(&o)
	}
	bundles := findBundles(o.fsys)
	l := &Layer{kinds: make(map[schema.GroupVersionKind]*kind, len(bundles))}
	for _, b := range bundles {
		l.kinds[b.gvk] = &kind{gvk: b.gvk, fsys: o.fsys, file: b.file, name: path.Join(o.root, b.file), engine: engine}
		l.order = append(l.order, b.gvk)
	}
	return l
}

// Kinds returns the kinds the layer has customizations for, in the order
// of their folders.
func (l *Layer) Kinds() []schema.GroupVersionKind { return slices.Clone(l.order) }

// Load reads and compiles the customizations of every kind not loaded
// yet, and returns every error found: for a server that would rather pay
// at start-up than on its first call.
func (l *Layer) Load() error {
	var errs customization.ErrorList
	for _, gvk := range l.order {
		if _, err := l.kinds[gvk].get(); err != nil {
			errs = append(errs, asList(err)...)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Hook returns the bundled customization and script answering op for
// kind gvk, loading the kind's customizations if needed; false when there
// is none, or when they do not load.
func (l *Layer) Hook(gvk schema.GroupVersionKind, op interpreter.Operation) (*customization.Customization, *customization.Script, bool) {
	k, ok := l.kinds[gvk]
	if !ok {
		return nil, nil, false
	}
	layer, err := k.get()
	if err != nil {
		return nil, nil, false
	}
	return layer.Hook(gvk, op)
}

// get returns the kind's compiled layer, loading it on the first call.
func (k *kind) get() (*customization.Layer, error) {
	k.once.Do(func() { k.layer, k.err = k.load() })
	return k.layer, k.err
}

// load reads the kind's customizations, checks that they all target the
// kind of their folder, and compiles them.
func (k *kind) load() (*customization.Layer, error) {
	data, err := fs.ReadFile(k.fsys, k.file)
	if err != nil {
		return nil, customization.ErrorList{{Position: customization.Position{File: k.name}, Err: err}}
	}
	set, err := customization.Parse(k.name, data)
	if err != nil {
		return nil, err
	}
	var errs customization.ErrorList
	for _, c := range set.Customizations {
		if c.Target != k.gvk {
			errs = append(errs, &customization.Error{Position: c.Position, Field: "spec.target",
				Err: fmt.Errorf("targets %s, not %s, the kind of its folder", interpreter.GVKString(c.Target), interpreter.GVKString(k.gvk))})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return customization.NewLayer(k.engine, set)
}

// asList returns the *customization.Error values of err.
func asList(err error) customization.ErrorList {
	if list, ok := err.(customization.ErrorList); ok {
		return list
	}
	return customization.ErrorList{{Err: err}}
}

// HookEnabled reports whether a bundled customization of kind gvk has a
// script for op, loading the kind's customizations on first use. A kind
// whose customizations fail to load claims every operation, so that the
// failure is reported by the call instead of passing silently to the
// layer below.
func (l *Layer) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	k, ok := l.kinds[gvk]
	if !ok {
		return false
	}
	layer, err := k.get()
	return err != nil || layer.HookEnabled(gvk, op)
}

// Interpret answers req from the bundled customizations of the object's
// kind: a *interpreter.NoHookError for a kind with none, the loading
// error for a kind whose customizations do not load.
func (l *Layer) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	if err := req.Validate(); err != nil {
		return interpreter.Response{Operation: req.Operation}, err
	}
	gvk := req.Object.GroupVersionKind()
	k, ok := l.kinds[gvk]
	if !ok {
		return interpreter.Response{Operation: req.Operation}, &interpreter.NoHookError{GVK: gvk, Operation: req.Operation}
	}
	layer, err := k.get()
	if err != nil {
		return interpreter.Response{Operation: req.Operation}, fmt.Errorf("loading the bundled customizations of %s: %w", interpreter.GVKString(gvk), err)
	}
	return layer.Interpret(ctx, req)
}
