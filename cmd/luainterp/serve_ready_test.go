package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/source"
)

// readyCustomizations are n customizations named ready-NNNN, each of its
// own kind ReadyNNNN, answering NNNN replicas.
func readyCustomizations(t *testing.T, n int) []*unstructured.Unstructured {
	t.Helper()
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
`, i, i, gadgetReplicas(i)), &u.Object))
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
	testenv.CreateAll(t, cfg, source.CustomizationResource, readyCustomizations(t, n))

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
		require.Less(t, time.Since(start), time.Minute, "serve not ready within a minute:\n%s", s.stderr)
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
