package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/kube/controller"
)

var metricsAddress = regexp.MustCompile(`msg="serving metrics" address=(\S+)`)

// TestControllerCommand runs `luainterp controller` on the CloneSet demo
// of make run, its replicas revised by the Lua customization of -f: the
// Works it writes into the API server are what `luainterp propagate`
// prints for the objects stored there.
func TestControllerCommand(t *testing.T) {
	cfg := env.Config(t)
	env.InstallCRD(t, "../../testdata/crds/apps.kruise.io_clonesets.yaml")
	kube := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	createNamespaces(t, kube, "shop", "karmada-es-eu-ams", "karmada-es-ap-sgp")
	stored := t.TempDir()
	store := func(file string, gvr schema.GroupVersionResource, keep func(*unstructured.Unstructured) bool) string {
		var docs []string
		for _, u := range demoObjects(t, file) {
			if keep != nil && !keep(u) {
				continue
			}
			var api dynamic.ResourceInterface = dyn.Resource(gvr)
			if u.GetNamespace() != "" {
				api = dyn.Resource(gvr).Namespace(u.GetNamespace())
			}
			out, err := api.Create(context.Background(), u, metav1.CreateOptions{})
			require.NoError(t, err, "create %s %s", u.GetKind(), u.GetName())
			data, err := yaml.Marshal(out.Object)
			require.NoError(t, err)
			docs = append(docs, string(data))
		}
		path := filepath.Join(stored, file)
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(docs, "---\n")), 0o644))
		return path
	}
	clusters := store("clusters.yaml", controller.ClusterResource, func(u *unstructured.Unstructured) bool { return u.GetName() != "eu-fra" })
	policies := store("policies.yaml", controller.OverridePolicyResource, func(u *unstructured.Unstructured) bool { return u.GetKind() == "OverridePolicy" })
	template := store("cloneset.yaml", schema.GroupVersionResource{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "clonesets"}, nil)
	binding := store("cloneset-binding.yaml", controller.ResourceBindingResource, nil)

	s := startController(t, "--kubeconfig", env.KubeConfig(t), "-f", demo+"cloneset-customization.yaml", "--workers", "2")
	r := run(t, "", "propagate", "--template", template, "--binding", binding, "--clusters", clusters,
		"--policies", policies, "-f", demo+"cloneset-customization.yaml", "-o", "json")
	require.NoError(t, r.err, r.stderr)
	want := works(t, "propagate", []byte(r.stdout))
	require.Len(t, want, 2)
	var got []map[string]any
	require.Eventually(t, func() bool {
		got = storedWorks(t, dyn, "storefront-cloneset")
		return assert.ObjectsAreEqual(want, got)
	}, 30*time.Second, 20*time.Millisecond, "works never matched propagate's:\n%s", s.stderr)
	assert.Equal(t, want, got)

	// The status loop is on by default: an item per Work, none applied yet.
	require.Eventually(t, func() bool {
		rb, err := dyn.Resource(controller.ResourceBindingResource).Namespace("shop").Get(context.Background(), "storefront-cloneset", metav1.GetOptions{})
		require.NoError(t, err)
		items, _, _ := unstructured.NestedSlice(rb.Object, "status", "aggregatedStatus")
		return len(items) == 2
	}, 10*time.Second, 20*time.Millisecond, "no aggregatedStatus:\n%s", s.stderr)

	metrics := httpGet(t, "http://"+s.addr+"/metrics")
	assert.Contains(t, metrics, `luainterp_controller_works_written_total{operation="create"} 2`)
	assert.Contains(t, httpGet(t, "http://"+s.addr+"/readyz"), "ok")
}

// startController runs `luainterp controller --metrics-address 127.0.0.1:0
// args...` until the test ends.
func startController(t *testing.T, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	cmd := newRootCommand()
	cmd.SetArgs(append([]string{"controller", "--metrics-address", "127.0.0.1:0"}, args...))
	cmd.SetOut(io.Discard)
	cmd.SetErr(s.stderr)
	go func() { s.done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() { require.NoError(t, s.stop(t)) })
	require.Eventually(t, func() bool {
		if m := metricsAddress.FindStringSubmatch(s.stderr.String()); m != nil {
			s.addr = m[1]
			return true
		}
		return false
	}, 60*time.Second, 10*time.Millisecond, "the controller did not serve metrics:\n%s", s.stderr)
	return s
}

// demoObjects reads a file of the demo, without the fields the API server sets.
func demoObjects(t *testing.T, file string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(demo + file)
	require.NoError(t, err)
	var out []*unstructured.Unstructured
	for _, doc := range strings.Split(string(data), "\n---\n") {
		u := &unstructured.Unstructured{}
		require.NoError(t, yaml.Unmarshal([]byte(doc), &u.Object))
		for _, f := range []string{"uid", "resourceVersion", "generation", "creationTimestamp"} {
			unstructured.RemoveNestedField(u.Object, "metadata", f)
		}
		delete(u.Object, "status")
		out = append(out, u)
	}
	return out
}

// storedWorks returns the Works of the binding named name in the API
// server, without the fields it sets, sorted as propagate prints them.
func storedWorks(t *testing.T, dyn dynamic.Interface, name string) []map[string]any {
	t.Helper()
	list, err := dyn.Resource(controller.WorkResource).List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	slices.SortFunc(list.Items, func(a, b unstructured.Unstructured) int {
		return strings.Compare(a.GetNamespace()+"\x00"+a.GetName(), b.GetNamespace()+"\x00"+b.GetName())
	})
	var docs []string
	for _, w := range list.Items {
		if w.GetAnnotations()["resourcebinding.karmada.io/name"] != name {
			continue
		}
		for _, f := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"} {
			unstructured.RemoveNestedField(w.Object, "metadata", f)
		}
		data, err := json.Marshal(w.Object)
		require.NoError(t, err)
		docs = append(docs, string(data))
	}
	return works(t, "api server", []byte(strings.Join(docs, "\n")))
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(data)
}
