package binding

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/interpreter"
)

// Pipeline turns a resource template and its binding into one Work per
// target cluster. It is safe for concurrent use.
type Pipeline struct {
	interp            interpreter.Interpreter
	failoverInjection bool
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// WithStatefulFailoverInjection turns on Karmada's StatefulFailoverInjection
// feature gate (off by default): after a failover with purgeMode Directly,
// the preserved label state is set on the manifest.
func WithStatefulFailoverInjection() Option {
	return func(p *Pipeline) { p.failoverInjection = true }
}

// New returns a Pipeline that revises replicas with interp (usually an
// *interpreter.Registry, so customizations, webhooks, bundled scripts and
// built-ins answer in that order). A nil interp revises nothing.
func New(interp interpreter.Interpreter, opts ...Option) *Pipeline {
	p := &Pipeline{interp: interp}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// Input is one binding to turn into Works.
type Input struct {
	// Template is the resource template the binding points at.
	Template *unstructured.Unstructured
	// Binding is the ResourceBinding or ClusterResourceBinding.
	Binding *api.ResourceBinding
	// Clusters must hold every target cluster; a missing one fails that
	// cluster.
	Clusters []api.Cluster
	// Overrides are the policies in force; nil for none.
	Overrides *overrides.Set
}

// Run produces the Works of in.Binding: one per target cluster (the
// binding's clusters, then those its dependents require), each from a fresh
// copy of the template. A failure on one cluster is recorded in its
// ClusterResult and the others proceed. Run itself fails only when the
// input is unusable or the Job's completions are not an integer; then no
// Work is produced.
func (p *Pipeline) Run(ctx context.Context, in Input) (*Result, error) {
	b, err := p.prepare(in)
	if err != nil {
		return nil, err
	}
	res := &Result{Clusters: make([]ClusterResult, len(b.targets))}
	for i, target := range b.targets {
		res.Clusters[i] = p.propagate(ctx, b, target)
	}
	return res, nil
}

// prepared is what Run works out once per binding.
type prepared struct {
	template  *unstructured.Unstructured
	binding   *api.ResourceBinding
	targets   []api.TargetCluster
	clusters  map[string]*api.Cluster
	overrides *overrides.Set
	seats     map[string]int32
	revise    bool
	// bindingAnnotations name the binding on the Work and the manifest.
	bindingAnnotations []entry
	// templateKey is the template's kind, name and namespace, and
	// templateWorkName their WorkName.
	templateKey      [3]string
	templateWorkName string
}

// workName is the Work name of clone (docs/binding.md §5), from its kind, name and
// namespace after the overrides.
func (b *prepared) workName(clone *unstructured.Unstructured) string {
	key := [3]string{clone.GetKind(), clone.GetName(), clone.GetNamespace()}
	if key == b.templateKey {
		return b.templateWorkName
	}
	return WorkName(key[0], key[1], key[2])
}

func (p *Pipeline) prepare(in Input) (*prepared, error) {
	if in.Template == nil || in.Binding == nil {
		return nil, errors.New("run binding pipeline: a template and a binding are required")
	}
	if err := checkBinding(in.Template, in.Binding); err != nil {
		return nil, err
	}
	b := &prepared{
		template:  in.Template,
		binding:   in.Binding,
		targets:   TargetClusters(&in.Binding.Spec),
		clusters:  make(map[string]*api.Cluster, len(in.Clusters)),
		overrides: in.Overrides,
	}
	if b.overrides == nil {
		b.overrides, _ = overrides.NewSet(nil)
	}
	for i := range in.Clusters {
		b.clusters[in.Clusters[i].Name] = &in.Clusters[i]
	}
	if in.Binding.IsCluster() {
		b.bindingAnnotations = []entry{{api.ClusterResourceBindingNameAnnotation, in.Binding.Name}}
	} else {
		b.bindingAnnotations = []entry{{api.ResourceBindingNamespaceAnnotation, in.Binding.Namespace}, {api.ResourceBindingNameAnnotation, in.Binding.Name}}
	}
	b.templateKey = [3]string{in.Template.GetKind(), in.Template.GetName(), in.Template.GetNamespace()}
	b.templateWorkName = WorkName(b.templateKey[0], b.templateKey[1], b.templateKey[2])
	spec := &in.Binding.Spec
	workload := spec.Replicas > 0 || spec.ReplicaRequirements != nil || len(spec.Components) > 0
	b.revise = workload && p.interp != nil && p.interp.HookEnabled(in.Template.GroupVersionKind(), interpreter.ReviseReplica)
	var err error
	if b.seats, err = divideCompletions(in.Template, spec, b.targets); err != nil {
		return nil, fmt.Errorf("%s %s: %w", in.Binding.Kind, bindingName(in.Binding), err)
	}
	return b, nil
}

// checkBinding makes sure the binding is a ResourceBinding or
// ClusterResourceBinding whose spec.resource, where set, names the template.
func checkBinding(template *unstructured.Unstructured, b *api.ResourceBinding) error {
	if b.Kind != api.KindResourceBinding && b.Kind != api.KindClusterResourceBinding {
		return fmt.Errorf("binding %s: kind %q is neither %s nor %s", b.Name, b.Kind, api.KindResourceBinding, api.KindClusterResourceBinding)
	}
	r := b.Spec.Resource
	fields := []struct{ name, want, got string }{
		{"apiVersion", r.APIVersion, template.GetAPIVersion()},
		{"kind", r.Kind, template.GetKind()},
		{"namespace", r.Namespace, template.GetNamespace()},
		{"name", r.Name, template.GetName()},
	}
	for _, f := range fields {
		if f.want != "" && f.want != f.got {
			return fmt.Errorf("%s %s: spec.resource.%s is %q but the template's is %q", b.Kind, bindingName(b), f.name, f.want, f.got)
		}
	}
	return nil
}

func bindingName(b *api.ResourceBinding) string {
	if b.Namespace == "" {
		return b.Name
	}
	return b.Namespace + "/" + b.Name
}

// propagate produces the Work for one target cluster.
func (p *Pipeline) propagate(ctx context.Context, b *prepared, target api.TargetCluster) ClusterResult {
	res := ClusterResult{Cluster: target.Name, Replicas: target.Replicas}
	work, err := p.work(ctx, b, target, &res)
	if err != nil {
		res.Err = &ClusterError{Cluster: target.Name, Err: err}
		return res
	}
	res.Work = work
	return res
}

// clone returns this cluster's copy of the template, with its replicas
// revised when the binding is a workload and the interpreter can revise
// the kind.
func (p *Pipeline) clone(ctx context.Context, b *prepared, target api.TargetCluster) (*unstructured.Unstructured, error) {
	if !b.revise {
		return b.template.DeepCopy(), nil
	}
	revised, err := interpreter.Typed{Interpreter: p.interp}.ReviseReplica(ctx, b.template, int64(target.Replicas))
	if err != nil {
		return nil, fmt.Errorf("revise replicas: %w", err)
	}
	if revised == nil || revised.Object == nil {
		return nil, errors.New("revise replicas: the interpreter returned no object")
	}
	if revised == b.template {
		return revised.DeepCopy(), nil
	}
	return revised, nil
}
