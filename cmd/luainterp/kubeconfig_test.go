package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubeconfigFromEnvironment: as kubectl, the commands that talk to an
// API server find it through $KUBECONFIG without a flag, and layers says
// when it found none.
func TestKubeconfigFromEnvironment(t *testing.T) {
	kubeconfig := env.KubeConfig(t)

	t.Run("layers offline", func(t *testing.T) {
		t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
		t.Setenv("KUBERNETES_SERVICE_HOST", "")
		r := run(t, "", "layers", "-f", layersCustomizations)
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stderr, "offline: no API server (no --kubeconfig, $KUBECONFIG, ~/.kube/config or pod)")
		assert.NotContains(t, r.stdout, "from the API server")
	})
	t.Run("layers", func(t *testing.T) {
		t.Setenv("KUBECONFIG", kubeconfig)
		r := run(t, "", "layers", "-f", layersCustomizations)
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stdout, "\nfrom the API server "+strings.TrimSuffix(env.Config(t).Host, "/")+":\n")
		assert.NotContains(t, r.stderr, "offline")
	})
	t.Run("--context", func(t *testing.T) {
		r := run(t, "", "layers", "--kubeconfig", kubeconfig, "--context", "elsewhere")
		require.Error(t, r.err)
		assert.Contains(t, r.err.Error(), `context "elsewhere" does not exist`)
	})
	t.Run("controller", func(t *testing.T) {
		t.Setenv("KUBECONFIG", kubeconfig)
		p := startProcess(t, "controller", "--metrics-address", "127.0.0.1:0")
		p.url(t, "/metrics") // it started, and serves its metrics
		select {
		case <-p.done:
			t.Fatalf("the controller exited:\n%s", p.stderr)
		default:
		}
	})
}
