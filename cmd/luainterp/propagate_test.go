package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/binding/input"
)

// TestPropagateCases runs every binding case through propagate: the
// conformance sample produced by Karmada (testdata/conformance/binding),
// and the golden cases written for the rules of the spec
// (testdata/binding/golden). Each folder holds template.yaml,
// binding.yaml, clusters.yaml and policies.yaml, expected.yaml (the Works,
// sorted by namespace then name) and, when clusters must fail, errors.txt
// (one line per failing cluster, in target order, found in that cluster's
// error).
func TestPropagateCases(t *testing.T) {
	for suite, pattern := range map[string]string{
		"conformance": "../../testdata/conformance/binding/*",
		"golden":      "../../testdata/binding/golden/*",
	} {
		dirs, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, dirs)
		for _, dir := range dirs {
			t.Run(suite+"/"+filepath.Base(dir), func(t *testing.T) {
				args := []string{"propagate",
					"--template", filepath.Join(dir, "template.yaml"),
					"--binding", filepath.Join(dir, "binding.yaml"),
					"--clusters", filepath.Join(dir, "clusters.yaml"),
					"--policies", filepath.Join(dir, "policies.yaml"),
				}
				r := run(t, "", args...)
				wantFailures := readLines(t, filepath.Join(dir, "errors.txt"))
				failures := failureLines(r.stderr)
				require.Len(t, failures, len(wantFailures), "stderr:\n%s", r.stderr)
				for i, want := range wantFailures {
					assert.Contains(t, failures[i], want)
				}
				if len(wantFailures) > 0 {
					assert.Equal(t, 1, r.code)
				} else {
					require.NoError(t, r.err, r.stderr)
				}
				want, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
				require.NoError(t, err)
				assert.Equal(t, works(t, "expected.yaml", want), works(t, "stdout", []byte(r.stdout)))
			})
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func failureLines(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "FAIL ") {
			out = append(out, line)
		}
	}
	return out
}

// works decodes a stream of Works for comparison; an empty status is the
// same as none.
func works(t *testing.T, name string, data []byte) []map[string]any {
	t.Helper()
	docs, err := input.Parse(name, data)
	require.NoError(t, err)
	out := make([]map[string]any, len(docs))
	for i, d := range docs {
		if s, ok := d.Object["status"].(map[string]any); ok && len(s) == 0 {
			delete(d.Object, "status")
		}
		out[i] = d.Object
	}
	return out
}

const demo = "../../testdata/examples/propagate/"

func TestPropagateDemo(t *testing.T) {
	out := t.TempDir()
	r := run(t, "", "propagate", "--template", demo+"cloneset.yaml", "--binding", demo+"cloneset-binding.yaml",
		"--clusters", demo+"clusters.yaml", "--policies", demo+"policies.yaml",
		"--customizations", demo+"cloneset-customization.yaml", "--out", out, "-o", "json")
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stderr, "ok   cluster eu-ams: work karmada-es-eu-ams/storefront-59f6964696, replicas 2")
	data, err := os.ReadFile(filepath.Join(out, "karmada-es-ap-sgp", "storefront-59f6964696.json"))
	require.NoError(t, err)
	docs := works(t, "work.json", data)
	require.Len(t, docs, 1)
	spec := docs[0]["spec"].(map[string]any)
	assert.Equal(t, true, spec["suspendDispatching"])
	manifest := spec["workload"].(map[string]any)["manifests"].([]any)[0].(map[string]any)
	assert.Equal(t, int64(1), manifest["spec"].(map[string]any)["replicas"], "revised by the Lua customization")
}

// TestPropagateLayers propagates the CloneSet demo with the layers the
// CLI wires: the bundled script revises its replicas without -f, and a
// customization of -f answers on top, its print output on stderr.
func TestPropagateLayers(t *testing.T) {
	customization := writeFile(t, "revise.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: revise-plus-100}
spec:
  target: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet}
  customizations:
    replicaRevision:
      luaScript: |-
        function ReviseReplica(obj, replicas)
          print("revising to " .. replicas)
          obj.spec.replicas = replicas + 100
          return obj
        end
`)
	tests := []struct {
		name       string
		args       []string
		wantSgp    int64  // the replicas of the ap-sgp Work's manifest
		wantStderr string // a line of stderr
	}{
		{"bundled script", nil, 1, "ok   cluster eu-ams: work karmada-es-eu-ams/storefront-59f6964696, replicas 2, overrides: none"},
		{"customization on top", []string{"-f", customization}, 101, "revising to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"propagate", "--template", demo + "cloneset.yaml", "--binding", demo + "cloneset-binding.yaml", "-o", "json"}, tt.args...)
			r := run(t, "", args...)
			require.NoError(t, r.err, r.stderr)
			assert.Contains(t, strings.Split(r.stderr, "\n"), tt.wantStderr)
			var sgp []any
			for _, w := range works(t, "stdout", []byte(r.stdout)) {
				if w["metadata"].(map[string]any)["namespace"] == "karmada-es-ap-sgp" {
					sgp = w["spec"].(map[string]any)["workload"].(map[string]any)["manifests"].([]any)
				}
			}
			require.Len(t, sgp, 1, r.stdout)
			assert.Equal(t, tt.wantSgp, sgp[0].(map[string]any)["spec"].(map[string]any)["replicas"])
		})
	}
}

func TestPropagateStdinAndBareClusters(t *testing.T) {
	template, err := os.ReadFile(demo + "deployment.yaml")
	require.NoError(t, err)
	r := run(t, string(template), "propagate", "--template", "-", "--binding", demo+"deployment-binding.yaml")
	require.NoError(t, r.err, r.stderr)
	assert.Len(t, works(t, "stdout", []byte(r.stdout)), 3)
	assert.Contains(t, r.stderr, "ok   cluster eu-fra: work karmada-es-eu-fra/storefront-d9b447676, replicas 2, overrides: none")
}

func TestPropagateFailures(t *testing.T) {
	job := writeFile(t, "job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: b}\nspec: {completions: \"ten\", parallelism: 1}\n")
	jobBinding := writeFile(t, "job-binding.yaml", `apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: j-job, namespace: b}
spec:
  resource: {apiVersion: batch/v1, kind: Job, namespace: b, name: j}
  replicas: 2
  placement: {replicaScheduling: {replicaSchedulingType: Divided}}
  clusters: [{name: m1, replicas: 1}, {name: m2, replicas: 1}]
`)
	badPolicy := writeFile(t, "policy.yaml", "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p, namespace: b}\nspec:\n  overrideRules:\n  - overriders: {labelsOverrider: [{operator: add, value: [x]}]}\n")
	noSpec := writeFile(t, "customization.yaml", "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata: {name: c}\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"completions not an integer fail the whole binding", []string{"--template", job, "--binding", jobBinding},
			"ResourceBinding b/j-job: divide completions: spec.completions: want an integer"},
		{"binding for another template", []string{"--template", demo + "deployment.yaml", "--binding", jobBinding},
			`ResourceBinding b/j-job: spec.resource.apiVersion is "batch/v1" but the template's is "apps/v1"`},
		{"policy of the wrong shape", []string{"--template", job, "--binding", jobBinding, "--policies", badPolicy},
			"policy.yaml:1: document 1 (OverridePolicy b/p): json: cannot unmarshal array into Go struct field"},
		{"template file missing", []string{"--template", filepath.Join(t.TempDir(), "none.yaml"), "--binding", jobBinding}, "none.yaml: no such file"},
		{"standard input twice", []string{"--template", "-", "--binding", jobBinding, "-f", "-"}, "-f/--customizations: standard input is already read for --template"},
		{"customization that does not load", []string{"--template", job, "--binding", jobBinding, "-f", noSpec}, noSpec + `:1: document 1 "c": spec: missing`},
		{"unknown output format", []string{"--template", job, "--binding", jobBinding, "-o", "xml"}, `--output: unknown format "xml": want yaml or json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"propagate"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Contains(t, r.err.Error(), tt.want)
			assert.Empty(t, r.stdout, "no Work is written")
		})
	}
}
