package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveFiles serves the repository's testdata on loopback, as a web
// server or a raw Git host would serve manifests, and returns its URL.
func serveFiles(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata")))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFileFlagsTakeURLs: every file flag takes http(s):// URLs, as
// karmadactl's do; the output is the one the files give.
func TestFileFlagsTakeURLs(t *testing.T) {
	base := serveFiles(t)
	fromFiles := run(t, "", "interpret", "-f", exampleCustomization, "--operation", "InterpretReplica", "--observed-file", exampleWorkload)
	require.NoError(t, fromFiles.err, fromFiles.stderr)

	r := run(t, "", "interpret", "-f", base+"/examples/customization.yaml", "--operation", "InterpretReplica",
		"--observed-file", base+"/examples/workload.yaml")
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, fromFiles.stdout, r.stdout)

	t.Run("check", func(t *testing.T) {
		r := run(t, "", "interpret", "--check", "-f", base+"/examples/customization.yaml")
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stdout, "PASS")
	})
	t.Run("propagate", func(t *testing.T) {
		demo := "../../testdata/examples/propagate/"
		fromFiles := run(t, "", "propagate", "--template", demo+"job.yaml", "--binding", demo+"job-binding.yaml",
			"--clusters", demo+"clusters.yaml", "--policies", demo+"policies.yaml")
		require.NoError(t, fromFiles.err, fromFiles.stderr)
		u := base + "/examples/propagate/"
		r := run(t, "", "propagate", "--template", u+"job.yaml", "--binding", u+"job-binding.yaml",
			"--clusters", u+"clusters.yaml", "--policies", u+"policies.yaml")
		require.NoError(t, r.err, r.stderr)
		assert.Equal(t, fromFiles.stdout, r.stdout)
	})
	t.Run("layers", func(t *testing.T) {
		r := run(t, "", "layers", "--object-file", base+"/examples/workload.yaml", "-f", base+"/examples/customization.yaml")
		require.NoError(t, r.err, r.stderr)
		assert.Contains(t, r.stdout, "customization")
	})
}

func TestFileFlagURLErrors(t *testing.T) {
	base := serveFiles(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name string
		args []string
		err  string // in full
	}{{
		name: "not found",
		args: []string{"interpret", "--operation", "InterpretHealth", "--observed-file", base + "/examples/nothing.yaml"},
		err:  "--observed-file: " + base + "/examples/nothing.yaml: GET: 404 Not Found",
	}, {
		name: "documents are located in the URL's body",
		args: []string{"interpret", "--operation", "InterpretHealth", "--observed-file", base + "/examples/propagate/clusters.yaml"},
		err:  "--observed-file: " + base + "/examples/propagate/clusters.yaml: want one document, got 3 (the second is " + base + "/examples/propagate/clusters.yaml:13: document 2)",
	}, {
		name: "nothing listening",
		args: []string{"interpret", "-f", closed.URL + "/hooks.yaml", "--operation", "InterpretHealth", "--observed-file", exampleWorkload},
		err:  closed.URL + "/hooks.yaml: GET: dial tcp " + strings.TrimPrefix(closed.URL, "http://") + ": connect: connection refused",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.args...)
			require.Error(t, r.err)
			assert.Equal(t, tt.err, r.err.Error())
		})
	}
}
