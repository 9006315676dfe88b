package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/luainterp/luainterp/kube/controller"
)

// writeLog is a reverse proxy to the API server that records every write
// one process sends through it (Lease renewals aside): what the API
// server saw from that process, whatever the process says of itself.
type writeLog struct {
	mu     sync.Mutex
	writes []loggedWrite
}

type loggedWrite struct {
	at   time.Time
	what string // "PUT /apis/work.karmada.io/..."
}

// proxy serves the API server of cfg on 127.0.0.1 without authentication
// (the proxy authenticates as cfg) and returns a kubeconfig file for it.
func (l *writeLog) proxy(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	target, err := url.Parse(cfg.Host)
	require.NoError(t, err)
	transport, err := rest.TransportFor(cfg)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = transport
	rp.FlushInterval = -1 // watches stream
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && !strings.Contains(r.URL.Path, "/leases") {
			l.mu.Lock()
			l.writes = append(l.writes, loggedWrite{at: time.Now(), what: r.Method + " " + r.URL.Path})
			l.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	kc := clientcmdapi.NewConfig()
	kc.Clusters["proxy"] = &clientcmdapi.Cluster{Server: srv.URL}
	kc.AuthInfos["proxy"] = &clientcmdapi.AuthInfo{}
	kc.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "proxy"}
	kc.CurrentContext = "proxy"
	path := filepath.Join(t.TempDir(), "proxy-kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*kc, path))
	return path
}

// since returns the writes recorded at or after t.
func (l *writeLog) since(t time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, w := range l.writes {
		if !w.at.Before(t) {
			out = append(out, w.what)
		}
	}
	return out
}

// fenceObjects are two Clusters, two Deployments and the binding of the
// first; the test adds the second's binding while the leader is paused.
const fenceObjects = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: fence-east}
spec: {syncMode: Push, apiEndpoint: "https://fence-east.example.internal:6443"}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: fence-west}
spec: {syncMode: Push, apiEndpoint: "https://fence-west.example.internal:6443"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: fence, labels: {app: api}}
spec:
  replicas: 4
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: registry.example.com/api:1.0}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: jobs, namespace: fence, labels: {app: jobs}}
spec:
  replicas: 2
  selector: {matchLabels: {app: jobs}}
  template:
    metadata: {labels: {app: jobs}}
    spec: {containers: [{name: jobs, image: registry.example.com/jobs:1.0}]}
---
apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: api-deployment, namespace: fence}
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: fence, name: api}
  replicas: 4
  clusters:
  - {name: fence-east, replicas: 2}
  - {name: fence-west, replicas: 2}
`

// TestControllerFencing runs two `luainterp controller --leader-elect`
// processes; the leader's requests go through a proxy that records its
// writes. The leader is paused (SIGSTOP) past its lease; the standby takes
// over and applies a change of one binding and a new binding; the old
// leader is resumed (SIGCONT) with those changes in its watches, and the
// API server sees no write from it from then on.
func TestControllerFencing(t *testing.T) {
	cfg := env.Config(t)
	ctx := context.Background()
	kube := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	createNamespaces(t, kube, "karmada-system", "fence", "karmada-es-fence-east", "karmada-es-fence-west")
	resources := map[string]schema.GroupVersionResource{
		"Cluster": controller.ClusterResource, "ResourceBinding": controller.ResourceBindingResource,
		"Deployment": {Group: "apps", Version: "v1", Resource: "deployments"},
	}
	objects := filepath.Join(t.TempDir(), "objects.yaml")
	require.NoError(t, os.WriteFile(objects, []byte(fenceObjects), 0o644))
	applyFile(t, dyn, func(gvk schema.GroupVersionKind) schema.GroupVersionResource { return resources[gvk.Kind] }, objects)

	const lease = "luainterp-fence"
	holder := func() string { return leaseHolder(kube, lease) }
	replicas := func(cluster, name string) int64 { // of the Work of Deployment name
		l, err := dyn.Resource(controller.WorkResource).Namespace("karmada-es-"+cluster).List(ctx, metav1.ListOptions{})
		if err != nil {
			return -1
		}
		for _, w := range l.Items {
			manifests, _, _ := unstructured.NestedSlice(w.Object, "spec", "workload", "manifests")
			if len(manifests) == 1 && (&unstructured.Unstructured{Object: manifests[0].(map[string]any)}).GetName() == name {
				n, _, _ := unstructured.NestedInt64(manifests[0].(map[string]any), "spec", "replicas")
				return n
			}
		}
		return -1
	}
	var firstWrites writeLog
	first := startCandidate(t, firstWrites.proxy(t, cfg), lease, "first")
	require.Eventually(t, func() bool { return holder() == "first" }, 60*time.Second, 50*time.Millisecond, "the first never led:\n%s", first.stderr)
	require.Eventually(t, func() bool { return replicas("fence-east", "api") == 2 && replicas("fence-west", "api") == 2 }, 30*time.Second, 50*time.Millisecond,
		"the leader never wrote the Works:\n%s", first.stderr)
	require.NotEmpty(t, firstWrites.since(time.Time{}), "the proxy saw none of the leader's writes")
	second := startCandidate(t, env.KubeConfig(t), lease, "second")
	require.Eventually(t, func() bool { return strings.Contains(second.stderr.String(), "leader observed") }, 60*time.Second, 50*time.Millisecond,
		"the standby never read the Lease:\n%s", second.stderr)

	require.NoError(t, first.cmd.Process.Signal(syscall.SIGSTOP))
	paused := time.Now()
	require.Eventually(t, func() bool { return holder() == "second" }, testLeaseDuration+5*time.Second, 20*time.Millisecond,
		"the standby did not take over:\n%s", second.stderr)
	patch := []byte(`{"spec":{"clusters":[{"name":"fence-east","replicas":3},{"name":"fence-west","replicas":1}]}}`)
	_, err := dyn.Resource(controller.ResourceBindingResource).Namespace("fence").Patch(ctx, "api-deployment", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
	jobs := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
		"metadata": map[string]any{"name": "jobs-deployment", "namespace": "fence"},
		"spec": map[string]any{
			"resource": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "fence", "name": "jobs"},
			"replicas": int64(2),
			"clusters": []any{map[string]any{"name": "fence-east", "replicas": int64(1)}, map[string]any{"name": "fence-west", "replicas": int64(1)}},
		},
	}}
	_, err = dyn.Resource(controller.ResourceBindingResource).Namespace("fence").Create(ctx, jobs, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return replicas("fence-east", "api") == 3 && replicas("fence-west", "jobs") == 1
	}, 30*time.Second, 20*time.Millisecond, "the new leader did not apply the changes:\n%s", second.stderr)

	// The old leader's watches hold the changes; it resumes, well past
	// its lease.
	if wait := 2*testLeaseDuration - time.Since(paused); wait > 0 {
		time.Sleep(wait)
	}
	resumed := time.Now()
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGCONT))
	// The binding keeps changing, as in a busy control plane: the old
	// leader's caches see the changes before the new leader's Works.
	for i := range 20 {
		patch := fmt.Sprintf(`{"spec":{"clusters":[{"name":"fence-east","replicas":%d},{"name":"fence-west","replicas":1}]}}`, 4+i)
		_, err := dyn.Resource(controller.ResourceBindingResource).Namespace("fence").Patch(ctx, "api-deployment", types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		require.NoError(t, err)
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case <-first.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the old leader did not stop leading after it resumed:\n%s", first.stderr)
	}
	assert.Empty(t, firstWrites.since(resumed), "writes of the old leader after it resumed:\n%s", first.stderr)
	assert.Contains(t, first.stderr.String(), "not renewed within its duration", "the old leader did not say why it stopped")
	t.Logf("leader paused for %s; writes from it after it resumed: %d", resumed.Sub(paused).Round(time.Millisecond), len(firstWrites.since(resumed)))
	require.Equal(t, "second", holder())
}
