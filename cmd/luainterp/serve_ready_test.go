package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/source"
)

// readyCustomizations are n customizations named ready-NNNN, each of its
// own kind ReadyNNNN, answering NNNN replicas; each script has helpers
// more functions, so that loading them all takes longer, as real scripts
// do.
func readyCustomizations(t *testing.T, n, helpers int) []*unstructured.Unstructured {
	t.Helper()
	var padding strings.Builder
	for i := range helpers {
		fmt.Fprintf(&padding, "local function helper%d(x) return x + %d end\n", i, i)
	}
	objs := make([]*unstructured.Unstructured, n)
	for i := range objs {
		u := &unstructured.Unstructured{}
		require.NoError(t, yaml.Unmarshal(fmt.Appendf(nil, `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: ready-%04d
spec:
  target:
    apiVersion: example.io/v1
    kind: Ready%04d
  customizations:
    replicaResource:
      luaScript: %q
`, i, i, padding.String()+gadgetReplicas(i)), &u.Object))
		objs[i] = u
	}
	return objs
}

// TestServeReadyMeansLoaded starts serve on 1,000 customizations that
// exist already and asks it, from the moment it listens, for the kind of
// the one listed last: every answer is a 503 with Retry-After (and
// /readyz 503) or the customization's, never "no hook".
func TestServeReadyMeansLoaded(t *testing.T) {
	cfg := env.Config(t)
	const n = 1000
	testenv.CreateAll(t, cfg, source.CustomizationResource, readyCustomizations(t, n, 50))

	s := startServeLoading(t, "--kubeconfig", env.KubeConfig(t))
	url := "http://" + s.addr
	body := fmt.Sprintf(`{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
		"request":{"uid":"u-1","operation":"InterpretReplica","object":{"apiVersion":"example.io/v1","kind":"Ready%04d","metadata":{"name":"r","namespace":"default"}}}}`, n-1)
	// ask returns the status of a request, and the replicas answered or the failure's message.
	ask := func() (int, string) {
		resp, err := http.Post(url+"/interpret", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		if resp.StatusCode != http.StatusOK {
			assert.Equal(t, "1", resp.Header.Get("Retry-After"), "a %d while loading: %s", resp.StatusCode, data)
			return resp.StatusCode, string(data)
		}
		var review struct {
			Response struct {
				Successful bool
				Replicas   int
				Status     struct{ Message string }
			}
		}
		require.NoError(t, json.Unmarshal(data, &review))
		if !review.Response.Successful {
			return resp.StatusCode, review.Response.Status.Message
		}
		return resp.StatusCode, fmt.Sprint(review.Response.Replicas)
	}
	readyz := func() int {
		resp, err := http.Get(url + "/readyz")
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}

	loading, wrong := 0, map[string]int{}
	start := time.Now()
	for {
		ready := readyz()
		status, answer := ask()
		switch {
		case status == http.StatusServiceUnavailable:
			loading++
			assert.Equal(t, http.StatusServiceUnavailable, ready, "/readyz while requests are refused")
		case answer != fmt.Sprint(n-1):
			wrong[answer]++
		}
		if status == http.StatusOK && ready == http.StatusOK {
			break
		}
		require.Less(t, time.Since(start), 3*time.Minute, "serve not ready within 3 minutes:\n%s", s.stderr)
	}
	t.Logf("ready %s after listening; %d requests answered 503 before", time.Since(start).Round(time.Millisecond), loading)
	assert.Empty(t, wrong, "answers other than the customization's")
	for range 100 {
		status, answer := ask()
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, fmt.Sprint(n-1), answer)
	}
	assert.Contains(t, httpGet(t, url+"/healthz"), "ok")
}

// readyObjects are the Clusters, template and binding of
// TestControllerReadyMeansLoaded.
const readyObjects = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: rdy-east}
spec: {syncMode: Push}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: rdy, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: registry.example.com/web:1.0}]}
---
apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: web-deployment, namespace: rdy}
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: rdy, name: web}
  replicas: 2
  clusters:
  - {name: rdy-east, replicas: 2}
`

// TestControllerReadyMeansLoaded starts the controller (no resync) on
// 1,000 customizations (50 functions each: they load for longer than the
// controller takes to start) and, last in name order, one revising the
// binding's Deployment: the Work it writes is revised by it, never by
// the layers below while the customizations were still loading.
func TestControllerReadyMeansLoaded(t *testing.T) {
	cfg := env.Config(t)
	kube := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	createNamespaces(t, kube, "rdy", "karmada-es-rdy-east")
	revise := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: zz-ready-web}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desiredReplica)
          obj.spec.replicas = desiredReplica
          obj.metadata.labels["revised-by"] = "zz-ready-web"
          return obj
        end
`), &revise.Object))
	testenv.CreateAll(t, cfg, source.CustomizationResource, append(readyCustomizations(t, 1000, 50), revise))
	objects := filepath.Join(t.TempDir(), "objects.yaml")
	require.NoError(t, os.WriteFile(objects, []byte(readyObjects), 0o644))
	applyFile(t, dyn, func(gvk schema.GroupVersionKind) schema.GroupVersionResource {
		return map[string]schema.GroupVersionResource{
			"Cluster": controller.ClusterResource, "ResourceBinding": controller.ResourceBindingResource,
			"Deployment": {Group: "apps", Version: "v1", Resource: "deployments"},
		}[gvk.Kind]
	}, objects)

	s := startController(t, "--kubeconfig", env.KubeConfig(t), "--resync", "0", "--workers", "2")
	var labels map[string]any
	require.Eventually(t, func() bool {
		list, err := dyn.Resource(controller.WorkResource).Namespace("karmada-es-rdy-east").List(context.Background(), metav1.ListOptions{})
		require.NoError(t, err)
		if len(list.Items) == 0 {
			return false
		}
		manifests, _, _ := unstructured.NestedSlice(list.Items[0].Object, "spec", "workload", "manifests")
		require.Len(t, manifests, 1)
		labels, _, _ = unstructured.NestedMap(manifests[0].(map[string]any), "metadata", "labels")
		return true
	}, 30*time.Second, 20*time.Millisecond, "no Work:\n%s", s.stderr)
	assert.Equal(t, "zz-ready-web", labels["revised-by"], "the Work was written before the customization loaded")
	assert.Contains(t, httpGet(t, "http://"+s.addr+"/readyz"), "ok")
}
