package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replicaHook is a customization name of example.io/v1 kind whose
// GetReplicas returns n.
func replicaHook(name, kind string, n int) string {
	return fmt.Sprintf(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: %s
spec:
  target:
    apiVersion: example.io/v1
    kind: %s
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          return %d, {}
        end
`, name, kind, n)
}

// upTo returns text up to and including the first line holding after.
func upTo(text, after string) string {
	return text[:strings.Index(text, after)+len(after)] + "\n"
}

// replicasAnswer posts InterpretReplica for the object of file and returns
// the replicas answered, or an error saying why the request failed.
func replicasAnswer(client *http.Client, url, body string) (float64, error) {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	var review struct {
		Response struct {
			Successful bool
			Replicas   float64
			Status     struct{ Message string }
		}
	}
	if err := json.Unmarshal(data, &review); err != nil || resp.StatusCode != http.StatusOK || !review.Response.Successful {
		return 0, fmt.Errorf("HTTP %d: %s", resp.StatusCode, data)
	}
	return review.Response.Replicas, nil
}

// TestServeWatchUnderLoad serves with --watch on a folder while one file is
// rewritten in place, in a loop, empty, cut short and valid, and clients
// ask the hooks of both files: no good request fails, and an edit of the
// other file applies while the first is caught empty.
func TestServeWatchUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of load")
	}
	const (
		writes      = 20                     // rewrites of churn.yaml
		pause       = 200 * time.Millisecond // between them: the reload (100ms after the last change) sees each
		maxRequests = 20000
		clients     = 4
	)
	dir := t.TempDir()
	churn, steady := filepath.Join(dir, "churn.yaml"), filepath.Join(dir, "steady.yaml")
	require.NoError(t, os.WriteFile(churn, []byte(replicaHook("churn", "Churn", 4)), 0o644))
	require.NoError(t, os.WriteFile(steady, []byte(replicaHook("steady", "Steady", 1)), 0o644))
	s := startServe(t, "-f", dir, "--watch", "--access-log", filepath.Join(t.TempDir(), "access.log"))
	url := "http://" + s.addr + "/"
	bodies := map[string]string{}
	for _, kind := range []string{"Churn", "Steady"} {
		bodies[kind] = interpreterRequest(t, writeFile(t, kind+".yaml", "apiVersion: example.io/v1\nkind: "+kind+"\nmetadata:\n  name: t\n"), "InterpretReplica", "")
	}
	good := map[string]map[float64]bool{"Churn": {4: true, 9: true}, "Steady": {1: true, 2: true}}

	versions := []string{
		"", // caught empty
		upTo(replicaHook("churn", "Churn", 9), "    replicaResource:"), // cut after a key, left null
		replicaHook("churn", "Churn", 9),
		upTo(replicaHook("churn", "Churn", 4), "return 4"), // cut mid-script
		upTo(replicaHook("churn", "Churn", 4), "kind: ResourceInterp"),
		replicaHook("churn", "Churn", 4),
	}
	done := make(chan struct{})
	var served, failed atomic.Int64
	var firstFailure atomic.Value
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			kinds := []string{"Churn", "Steady"}
			for n := i; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				if served.Load()+failed.Load() >= maxRequests {
					return
				}
				kind := kinds[n%2]
				replicas, err := replicasAnswer(client, url, bodies[kind])
				if err == nil && !good[kind][replicas] {
					err = fmt.Errorf("%s: %v replicas", kind, replicas)
				}
				if err != nil {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, err.Error())
					continue
				}
				served.Add(1)
			}
		}(i)
	}
	for i := range writes {
		require.NoError(t, os.WriteFile(churn, []byte(versions[i%len(versions)]), 0o644))
		time.Sleep(pause)
	}
	// churn.yaml is caught empty; an edit of steady.yaml still applies.
	require.NoError(t, os.WriteFile(churn, nil, 0o644))
	time.Sleep(pause)
	require.NoError(t, os.WriteFile(steady, []byte(replicaHook("steady", "Steady", 2)), 0o644))
	assert.Eventually(t, func() bool {
		n, err := replicasAnswer(client, url, bodies["Steady"])
		return err == nil && n == 2
	}, 10*time.Second, 20*time.Millisecond, "the edit of the other file applies")
	close(done)
	wg.Wait()

	t.Logf("%d good requests served, %d failed, during %d rewrites", served.Load(), failed.Load(), writes+1)
	assert.Zero(t, failed.Load(), "first failure: %v", firstFailure.Load())
	assert.Positive(t, served.Load())
	metrics := metricsText(t, "http://"+s.addr)
	for _, outcome := range []string{"emptied", "invalid", "loaded"} {
		assert.Regexp(t, regexp.QuoteMeta(`luainterp_customization_file_reloads_total{file="`+churn+`",outcome="`+outcome+`"} `)+`[1-9]`, metrics)
	}
	assert.Contains(t, s.stderr.String(), `level=WARN msg="customization file not reloaded: its last good version still serves; delete the file to remove its hooks" file=`+churn+" outcome=emptied")
	assert.Contains(t, metrics, "\nluainterp_customizations_last_reload_successful 0\n", "churn.yaml is held")

	require.NoError(t, os.Remove(churn))
	assert.Eventually(t, func() bool {
		_, err := replicasAnswer(client, url, bodies["Churn"])
		return err != nil
	}, 10*time.Second, 20*time.Millisecond, "deleting the file removes its hooks")
	// The gauge is set once the reload is in place, a moment after the
	// hooks are gone.
	assert.Eventually(t, func() bool {
		return strings.Contains(metricsText(t, "http://"+s.addr), "\nluainterp_customizations_last_reload_successful 1\n")
	}, 10*time.Second, 20*time.Millisecond, "a reload with no file held is successful")
	assert.Regexp(t, `\nluainterp_customizations_last_reload_success_timestamp_seconds 1\.[0-9]+e\+09\n`, metrics)
}

// TestServeKubeWatchFiles follows the API server with -f files watched:
// the files merged into its layer keep the same rules, a file caught empty
// holding its last good version while the other file's edit applies.
func TestServeKubeWatchFiles(t *testing.T) {
	env.Config(t) // skips, or fails, without an API server
	dir := t.TempDir()
	churn, steady := filepath.Join(dir, "churn.yaml"), filepath.Join(dir, "steady.yaml")
	require.NoError(t, os.WriteFile(churn, []byte(replicaHook("churn", "Churn", 4)), 0o644))
	require.NoError(t, os.WriteFile(steady, []byte(replicaHook("steady", "Steady", 1)), 0o644))
	s := startServe(t, "--kubeconfig", env.KubeConfig(t), "-f", dir, "--watch")
	url := "http://" + s.addr + "/"
	answer := func(kind string) float64 {
		n, err := replicasAnswer(http.DefaultClient, url, interpreterRequest(t,
			writeFile(t, kind+".yaml", "apiVersion: example.io/v1\nkind: "+kind+"\nmetadata:\n  name: t\n"), "InterpretReplica", ""))
		if err != nil {
			return -1
		}
		return n
	}
	require.Equal(t, 4.0, answer("Churn"))

	require.NoError(t, os.WriteFile(churn, nil, 0o644))
	require.Eventually(t, func() bool {
		return strings.Contains(s.stderr.String(), `msg="customization file not reloaded: its last good version still serves; delete the file to remove its hooks" file=`+churn+" outcome=emptied")
	}, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, 4.0, answer("Churn"), "the file caught empty keeps its last good version")

	require.NoError(t, os.WriteFile(steady, []byte(replicaHook("steady", "Steady", 2)), 0o644))
	assert.Eventually(t, func() bool { return answer("Steady") == 2 }, 10*time.Second, 20*time.Millisecond, "the other file's edit applies")
	assert.Equal(t, 4.0, answer("Churn"))

	require.NoError(t, os.Remove(churn))
	assert.Eventually(t, func() bool { return answer("Churn") == -1 }, 10*time.Second, 20*time.Millisecond, "deleting the file removes its hooks")
}
