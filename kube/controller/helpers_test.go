package controller_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/scripts"
)

// examples is the folder of propagate's bundled example.
const examples = "../../testdata/examples/propagate"

// registry is luainterp's built-in and bundled layers, as the command
// wires them without customizations.
func registry() *interpreter.Registry {
	return interpreter.NewRegistry().
		Set(interpreter.LayerBuiltin, builtin.New()).
		Set(interpreter.LayerThirdParty, scripts.NewLayer(luavm.New()))
}

// cluster is an API server with clients for the tests.
type cluster struct {
	t       testing.TB
	cfg     *rest.Config
	dynamic dynamic.Interface
	kube    kubernetes.Interface
	mapper  meta.RESTMapper
}

func newCluster(t testing.TB) *cluster {
	t.Helper()
	cfg := env.Config(t)
	kube, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return &cluster{t: t, cfg: cfg, dynamic: dynamic.NewForConfigOrDie(cfg), kube: kube,
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kube.Discovery()))}
}

// with returns c for a subtest.
func (c *cluster) with(t testing.TB) *cluster {
	d := *c
	d.t = t
	return &d
}

// try creates u as create does, in a dry run, returning the API server's
// refusal.
func (c *cluster) try(u *unstructured.Unstructured) error {
	c.t.Helper()
	u = withoutServerFields(u)
	_, err := c.resource(u).Create(context.Background(), u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}

// withoutServerFields returns a copy of u without the fields the API
// server sets.
func withoutServerFields(u *unstructured.Unstructured) *unstructured.Unstructured {
	u = u.DeepCopy()
	for _, f := range []string{"uid", "resourceVersion", "generation", "creationTimestamp"} {
		unstructured.RemoveNestedField(u.Object, "metadata", f)
	}
	delete(u.Object, "status")
	return u
}

// run starts a controller until the test ends and returns its metrics.
func (c *cluster) run(opts ...controller.Option) *controller.Metrics {
	c.t.Helper()
	return c.runWith(registry(), opts...)
}

// runWith is run with the interpreter reg.
func (c *cluster) runWith(reg interpreter.Interpreter, opts ...controller.Option) *controller.Metrics {
	c.t.Helper()
	m := controller.NewMetrics()
	ctrl, err := controller.New(c.cfg, reg, append([]controller.Option{controller.WithMetrics(m)}, opts...)...)
	require.NoError(c.t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	c.t.Cleanup(func() {
		cancel()
		require.NoError(c.t, <-done)
	})
	require.Eventually(c.t, func() bool { return ctrl.Ready() == nil }, time.Minute, 10*time.Millisecond)
	return m
}

// namespace creates a namespace, removed when the test ends.
func (c *cluster) namespace(name string) {
	c.t.Helper()
	_, err := c.kube.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return
	}
	require.NoError(c.t, err)
}

// resource returns the client of u's kind (in u's namespace).
func (c *cluster) resource(u *unstructured.Unstructured) dynamic.ResourceInterface {
	c.t.Helper()
	gvk := u.GroupVersionKind()
	mapping, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	require.NoError(c.t, err)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.dynamic.Resource(mapping.Resource).Namespace(u.GetNamespace())
	}
	return c.dynamic.Resource(mapping.Resource)
}

// create creates u without the fields the API server sets, and returns
// it as stored.
func (c *cluster) create(u *unstructured.Unstructured) *unstructured.Unstructured {
	c.t.Helper()
	u = withoutServerFields(u)
	out, err := c.resource(u).Create(context.Background(), u, metav1.CreateOptions{})
	require.NoError(c.t, err, "create %s %s", u.GetKind(), u.GetName())
	return out
}

// get reads u back; nil when it is gone.
func (c *cluster) get(u *unstructured.Unstructured) *unstructured.Unstructured {
	c.t.Helper()
	out, err := c.resource(u).Get(context.Background(), u.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	require.NoError(c.t, err)
	return out
}

// update reads u, changes it and writes it back.
func (c *cluster) update(u *unstructured.Unstructured, change func(*unstructured.Unstructured)) {
	c.t.Helper()
	require.Eventually(c.t, func() bool {
		current := c.get(u)
		change(current)
		_, err := c.resource(u).Update(context.Background(), current, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false
		}
		require.NoError(c.t, err)
		return true
	}, 10*time.Second, 10*time.Millisecond)
}

func (c *cluster) delete(u *unstructured.Unstructured) {
	c.t.Helper()
	require.NoError(c.t, c.resource(u).Delete(context.Background(), u.GetName(), metav1.DeleteOptions{}))
}

// objects reads the documents of a file of the example, each renamed by rename.
func objects(t testing.TB, file string, rename func(*unstructured.Unstructured)) []*unstructured.Unstructured {
	t.Helper()
	return readObjects(t, filepath.Join(examples, file), rename)
}

// readObjects reads the objects of a file, each changed by rename.
func readObjects(t testing.TB, path string, rename func(*unstructured.Unstructured)) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	objs, err := manifest.Parse(path, data)
	require.NoError(t, err)
	var out []*unstructured.Unstructured
	for _, o := range objs {
		u := &unstructured.Unstructured{Object: o.Object}
		if rename != nil {
			rename(u)
		}
		out = append(out, u)
	}
	return out
}

// works lists the Works of the ResourceBinding named namespace/name in
// the API server (the ClusterResourceBinding name when namespace is ""),
// without the fields the API server sets, by namespace/name.
func (c *cluster) works(namespace, name string) map[string]map[string]any {
	c.t.Helper()
	list, err := c.dynamic.Resource(controller.WorkResource).List(context.Background(), metav1.ListOptions{})
	require.NoError(c.t, err)
	out := map[string]map[string]any{}
	for _, w := range list.Items {
		a := w.GetAnnotations()
		switch {
		case namespace == "" && a[api.ClusterResourceBindingNameAnnotation] != name:
			continue
		case namespace != "" && (a[api.ResourceBindingNamespaceAnnotation] != namespace || a[api.ResourceBindingNameAnnotation] != name):
			continue
		}
		for _, f := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"} {
			unstructured.RemoveNestedField(w.Object, "metadata", f)
		}
		out[w.GetNamespace()+"/"+w.GetName()] = w.Object
	}
	return out
}

// oracle runs the binding pipeline, as propagate does, on the binding's
// objects as stored in the API server: its template, the Clusters and
// every override policy. It returns the Works by namespace/name.
func (c *cluster) oracle(rb *unstructured.Unstructured) map[string]map[string]any {
	c.t.Helper()
	stored := c.get(rb)
	require.NotNil(c.t, stored)
	var b api.ResourceBinding
	decodeInto(c.t, stored, &b)
	r := b.Spec.Resource
	template := c.get(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": r.APIVersion, "kind": r.Kind, "metadata": map[string]any{"name": r.Name, "namespace": r.Namespace},
	}})
	require.NotNil(c.t, template)
	var clusters []api.Cluster
	for _, u := range c.list(controller.ClusterResource) {
		var cl api.Cluster
		decodeInto(c.t, u, &cl)
		clusters = append(clusters, cl)
	}
	var policies []api.OverridePolicy
	for _, gvr := range []schema.GroupVersionResource{controller.ClusterOverridePolicyResource, controller.OverridePolicyResource} {
		for _, u := range c.list(gvr) {
			var p api.OverridePolicy
			decodeInto(c.t, u, &p)
			policies = append(policies, p)
		}
	}
	set, err := overrides.NewSet(policies)
	require.NoError(c.t, err)
	res, err := binding.New(registry()).Run(context.Background(), binding.Input{Template: template, Binding: &b, Clusters: clusters, Overrides: set})
	require.NoError(c.t, err)
	out := map[string]map[string]any{}
	for _, w := range res.Works() {
		data, err := json.Marshal(w)
		require.NoError(c.t, err)
		obj := map[string]any{}
		require.NoError(c.t, utiljson.Unmarshal(data, &obj))
		delete(obj, "status")
		unstructured.RemoveNestedField(obj, "metadata", "creationTimestamp")
		out[w.Namespace+"/"+w.Name] = obj
	}
	return out
}

func (c *cluster) list(gvr schema.GroupVersionResource) []*unstructured.Unstructured {
	c.t.Helper()
	list, err := c.dynamic.Resource(gvr).List(context.Background(), metav1.ListOptions{})
	require.NoError(c.t, err)
	out := make([]*unstructured.Unstructured, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out
}

func decodeInto(t testing.TB, u *unstructured.Unstructured, out any) {
	t.Helper()
	data, err := json.Marshal(u.Object)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, out))
}

// converge waits until the binding's Works in the API server are the
// pipeline's, each changed by the edits given (a sharded controller's
// label), and returns them.
func (c *cluster) converge(rb *unstructured.Unstructured, edits ...func(work map[string]any)) map[string]map[string]any {
	c.t.Helper()
	var want, got map[string]map[string]any
	ok := assertEventually(func() bool {
		want, got = c.oracle(rb), c.works(rb.GetNamespace(), rb.GetName())
		for _, w := range want {
			for _, edit := range edits {
				edit(w)
			}
		}
		return equalJSON(want, got)
	})
	require.True(c.t, ok, "works of %s/%s never matched the pipeline's:\nwant %s\ngot  %s", rb.GetNamespace(), rb.GetName(), dump(want), dump(got))
	return got
}

// assertEventually polls cond until it holds, for at most 30 s.
func assertEventually(cond func() bool) bool {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cond()
}

func equalJSON(a, b any) bool { return dump(a) == dump(b) }

func dump(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

// counter returns the value of a counter or histogram sum of m whose
// labels are labels.
func counter(t testing.TB, m *controller.Metrics, name string, labels map[string]string) float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(m)
	families, err := reg.Gather()
	require.NoError(t, err)
	total := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, metric := range f.GetMetric() {
			got := map[string]string{}
			for _, p := range metric.GetLabel() {
				got[p.GetName()] = p.GetValue()
			}
			for k, v := range labels {
				if got[k] != v {
					continue metrics
				}
			}
			if h := metric.GetHistogram(); h != nil {
				total += h.GetSampleSum()
				continue
			}
			total += metric.GetCounter().GetValue() + metric.GetGauge().GetValue()
		}
	}
	return total
}

// writes is every Work the controller created, updated or deleted.
func writes(t testing.TB, m *controller.Metrics) float64 {
	return counter(t, m, "luainterp_controller_works_written_total", nil) + counter(t, m, "luainterp_controller_works_deleted_total", nil)
}

func reconciles(t testing.TB, m *controller.Metrics) float64 {
	return counter(t, m, "luainterp_controller_reconciles_total", nil)
}

// letGo plays Karmada's execution controller for a deleted Work: once it
// is being deleted, its finalizer is removed, and it is gone (or another
// of its name was made).
func (c *cluster) letGo(namespace, name string) *unstructured.Unstructured {
	c.t.Helper()
	ref := &unstructured.Unstructured{}
	ref.SetAPIVersion(api.WorkAPIVersion)
	ref.SetKind(api.KindWork)
	ref.SetNamespace(namespace)
	ref.SetName(name)
	var deleting *unstructured.Unstructured
	require.True(c.t, assertEventually(func() bool {
		deleting = c.get(ref)
		return deleting != nil && deleting.GetDeletionTimestamp() != nil
	}), "work %s/%s is not being deleted", namespace, name)
	c.update(ref, func(u *unstructured.Unstructured) { u.SetFinalizers(nil) })
	require.True(c.t, assertEventually(func() bool {
		now := c.get(ref)
		return now == nil || now.GetUID() != deleting.GetUID() // gone, or made again
	}), "work %s/%s is still there", namespace, name)
	return deleting
}

// deployment creates propagate's example Deployment in namespace ns,
// Clusters with the given names and labels (and their execution
// namespaces) unless they exist, and a binding placing 3 replicas on each; change edits the
// binding before it is created. It returns the binding and the template
// as stored.
func (c *cluster) deployment(ns string, clusters map[string]map[string]any, change func(*unstructured.Unstructured)) (rb, template *unstructured.Unstructured) {
	c.t.Helper()
	c.namespace(ns)
	var targets []any
	for _, name := range slices.Sorted(maps.Keys(clusters)) {
		c.namespace(binding.ExecutionNamespace(name))
		cl := clusterObject(name)
		if clusters[name] != nil {
			cl.Object["metadata"].(map[string]any)["labels"] = clusters[name]
		}
		if c.get(cl) == nil {
			c.create(cl)
		}
		targets = append(targets, map[string]any{"name": name, "replicas": int64(3)})
	}
	template = c.create(objects(c.t, "deployment.yaml", func(u *unstructured.Unstructured) { u.SetNamespace(ns) })[0])
	rb = c.create(objects(c.t, "deployment-binding.yaml", func(u *unstructured.Unstructured) {
		u.SetNamespace(ns)
		require.NoError(c.t, unstructured.SetNestedField(u.Object, ns, "spec", "resource", "namespace"))
		require.NoError(c.t, unstructured.SetNestedSlice(u.Object, targets, "spec", "clusters"))
		if change != nil {
			change(u)
		}
	})[0])
	return rb, template
}

func clusterObject(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"syncMode": "Push"},
	}}
}
