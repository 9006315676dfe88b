package source_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/source"
)

// logBuffer collects a Source's log, safe for its goroutines and the test's.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// live is a started Source and what a test needs around it.
type live struct {
	reg     *interpreter.Registry
	source  *source.Source
	metrics *source.Metrics
	log     *logBuffer
}

// startSource starts a Source on cfg into a new registry until the test ends.
func startSource(t *testing.T, cfg *rest.Config, opts ...source.Option) *live {
	t.Helper()
	l := &live{reg: interpreter.NewRegistry(), metrics: source.NewMetrics(), log: &logBuffer{}}
	opts = append([]source.Option{source.WithMetrics(l.metrics), source.WithLogger(slog.New(slog.NewTextHandler(l.log, nil)))}, opts...)
	s, err := source.New(cfg, l.reg, luavm.New(), opts...)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	require.NoError(t, s.Start(ctx))
	l.source = s
	return l
}

// loads returns luainterp_kube_object_loads_total{kind,outcome}.
func (l *live) loads(t *testing.T, kind, outcome string) float64 {
	t.Helper()
	return l.sample(t, "luainterp_kube_object_loads_total", map[string]string{"kind": kind, "outcome": outcome})
}

// sample returns the value of the counter or gauge of family whose labels are want, 0 when there is none.
func (l *live) sample(t *testing.T, family string, want map[string]string) float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(l.metrics)
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != family {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, p := range m.GetLabel() {
				labels[p.GetName()] = p.GetValue()
			}
			if maps.Equal(labels, want) {
				return m.GetCounter().GetValue() + m.GetGauge().GetValue()
			}
		}
	}
	return 0
}

// widget is an object of the kind example.io/v1 kind.
func widget(kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": kind, "metadata": map[string]any{"name": "w", "namespace": "default"},
	}}
}

func widgetKind(kind string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: kind}
}

// replicaCustomization is a ResourceInterpreterCustomization of kind
// whose replicaResource is script.
func replicaCustomization(t *testing.T, name, kind, script string) *unstructured.Unstructured {
	t.Helper()
	return object(t, fmt.Sprintf(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: %s
spec:
  target:
    apiVersion: example.io/v1
    kind: %s
  customizations:
    replicaResource:
      luaScript: %q
`, name, kind, script))
}

// returning is a GetReplicas returning n.
func returning(n int) string {
	return fmt.Sprintf("function GetReplicas(obj)\n  return %d, nil\nend\n", n)
}

func object(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(text), &u.Object))
	return u
}

// objects is a dynamic client for one resource, deleting what it created when the test ends.
type objects struct {
	t   *testing.T
	api dynamic.ResourceInterface
}

func newObjects(t *testing.T, cfg *rest.Config, gvr schema.GroupVersionResource) *objects {
	return &objects{t: t, api: dynamic.NewForConfigOrDie(cfg).Resource(gvr)}
}

func (o *objects) create(u *unstructured.Unstructured) *unstructured.Unstructured {
	o.t.Helper()
	created, err := o.api.Create(context.Background(), u, metav1.CreateOptions{})
	require.NoError(o.t, err)
	o.t.Cleanup(func() {
		err := o.api.Delete(context.Background(), u.GetName(), metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			o.t.Errorf("deleting %s: %v", u.GetName(), err)
		}
	})
	return created
}

// update replaces the object's spec (or webhooks) with u's.
func (o *objects) update(u *unstructured.Unstructured) {
	o.t.Helper()
	current, err := o.api.Get(context.Background(), u.GetName(), metav1.GetOptions{})
	require.NoError(o.t, err)
	u.SetResourceVersion(current.GetResourceVersion())
	_, err = o.api.Update(context.Background(), u, metav1.UpdateOptions{})
	require.NoError(o.t, err)
}

func (o *objects) delete(name string) {
	o.t.Helper()
	require.NoError(o.t, o.api.Delete(context.Background(), name, metav1.DeleteOptions{}))
}

// eventually polls cond every millisecond until it holds, failing the test
// after a minute; it returns how long it took.
func eventually(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > time.Minute {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(time.Millisecond)
	}
	return time.Since(start)
}

// events returns the Events on the cluster-scoped object name with reason.
func events(t *testing.T, cfg *rest.Config, name, reason string) []corev1.Event {
	t.Helper()
	list, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Events(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{
		FieldSelector: "involvedObject.name=" + name + ",reason=" + reason,
	})
	require.NoError(t, err)
	return list.Items
}
