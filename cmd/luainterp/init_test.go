package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

const (
	cloneSetCRD     = "../../testdata/crds/apps.kruise.io_clonesets.yaml"
	broadcastJobCRD = "../../testdata/crds/apps.kruise.io_broadcastjobs.yaml"
)

// initSuite runs luainterp init into a new folder and returns the folder.
func initSuite(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "suite")
	r := run(t, "", append([]string{"init", dir}, args...)...)
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stdout, "wrote "+filepath.Join(dir, "customizations.yaml")+"\n")
	assert.Contains(t, r.stdout, "next: luainterp test "+dir+"\n")
	return dir
}

// passes runs luainterp test on a suite and requires every case to pass.
func passes(t *testing.T, dir string) string {
	t.Helper()
	r := run(t, "", "test", dir)
	require.NoError(t, r.err, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "8 passed, 0 failed\n")
	return r.stdout
}

// caseOutput reads the expected output of the case init wrote for an operation.
func caseOutput(t *testing.T, dir, operation string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "testdata", operation+".yaml"))
	require.NoError(t, err)
	var c struct{ Output map[string]any }
	require.NoError(t, yaml.Unmarshal(data, &c))
	return c.Output
}

func TestInitFromCRD(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		replicas map[string]any // InterpretReplica's expected output
		kind     string
	}{{
		name: "CloneSet: replicas and a pod template",
		args: []string{"--api-version", "apps.kruise.io/v1alpha1", "--kind", "CloneSet", "--from-crd", cloneSetCRD},
		replicas: map[string]any{"replica": 2.0, "requires": map[string]any{
			"resourceRequest": map[string]any{"cpu": "500m", "memory": "256Mi"}}},
		kind: "apps.kruise.io/v1alpha1",
	}, {
		name: "the storage version when none is named",
		args: []string{"--from-crd", cloneSetCRD},
		replicas: map[string]any{"replica": 2.0, "requires": map[string]any{
			"resourceRequest": map[string]any{"cpu": "500m", "memory": "256Mi"}}},
		kind: "apps.kruise.io/v1beta1",
	}, {
		name: "BroadcastJob: a pod template, no replicas",
		args: []string{"--from-crd", broadcastJobCRD, "--kind", "BroadcastJob"},
		replicas: map[string]any{"replica": 1.0, "requires": map[string]any{
			"resourceRequest": map[string]any{"cpu": "500m", "memory": "256Mi"}}},
		kind: "apps.kruise.io/v1beta1",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := initSuite(t, tt.args...)
			passes(t, dir)
			assert.Equal(t, tt.replicas, caseOutput(t, dir, "interpretreplica"))
			check := run(t, "", "interpret", "--check", "-f", filepath.Join(dir, "customizations.yaml"))
			require.NoError(t, check.err, check.stdout)
			data, err := os.ReadFile(filepath.Join(dir, "customizations.yaml"))
			require.NoError(t, err)
			assert.Contains(t, string(data), "    apiVersion: "+tt.kind+"\n")
		})
	}
}

// TestInitCloneSetOutputs: the cases show every result of the sample in
// full; the aggregated status adds up the members' counters.
func TestInitCloneSetOutputs(t *testing.T) {
	dir := initSuite(t, "--from-crd", cloneSetCRD)
	status := caseOutput(t, dir, "aggregatestatus")["aggregatedStatus"].(map[string]any)["status"].(map[string]any)
	assert.Equal(t, 4.0, status["readyReplicas"])
	assert.Equal(t, 1.0, status["observedGeneration"])
	assert.Equal(t, map[string]any{"dependencies": []any{map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "namespace": "default", "name": "sample-config"}}},
		caseOutput(t, dir, "interpretdependency"))
	assert.Equal(t, map[string]any{"healthy": true}, caseOutput(t, dir, "interprethealth"))
	revised := caseOutput(t, dir, "revisereplica")["revised"].(map[string]any)
	assert.Equal(t, 3.0, revised["spec"].(map[string]any)["replicas"])
}

func TestInitWithoutCRD(t *testing.T) {
	dir := initSuite(t, "--api-version", "apps.example.com/v1", "--kind", "Widget")
	passes(t, dir)
	assert.Equal(t, 2.0, caseOutput(t, dir, "interpretreplica")["replica"])
}

func TestInitCRDFromURL(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata/crds")))
	defer srv.Close()
	passes(t, initSuite(t, "--from-crd", srv.URL+"/apps.kruise.io_broadcastjobs.yaml"))
}

// TestInitDefaultFolder: the folder is the kind in lower case.
func TestInitDefaultFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	r := run(t, "", "init", "--api-version", "apps.example.com/v1", "--kind", "Widget")
	require.NoError(t, r.err, r.stderr)
	passes(t, "widget")
}

func TestInitErrors(t *testing.T) {
	existing := initSuite(t, "--api-version", "apps.example.com/v1", "--kind", "Widget")
	tests := []struct {
		name string
		args []string
		err  string // in full
	}{{
		name: "no kind",
		args: []string{"init", t.TempDir(), "--api-version", "apps.example.com/v1"},
		err:  "--api-version and --kind: required (or --from-crd)",
	}, {
		name: "no version",
		args: []string{"init", t.TempDir(), "--api-version", "apps.example.com/", "--kind", "Widget"},
		err:  `--api-version: "apps.example.com/" has no version: want GROUP/VERSION`,
	}, {
		name: "a suite is there",
		args: []string{"init", existing, "--api-version", "apps.example.com/v1", "--kind", "Widget"},
		err:  filepath.Join(existing, "customizations.yaml") + ": already exists; init writes a new suite only",
	}, {
		name: "another kind than the CRD's",
		args: []string{"init", t.TempDir(), "--kind", "StatefulSet", "--from-crd", cloneSetCRD},
		err:  `--from-crd: ../../testdata/crds/apps.kruise.io_clonesets.yaml:1: document 1 "clonesets.apps.kruise.io": spec.names.kind: the CRD is for kind "CloneSet", not "StatefulSet"`,
	}, {
		name: "another group",
		args: []string{"init", t.TempDir(), "--api-version", "apps/v1", "--kind", "CloneSet", "--from-crd", cloneSetCRD},
		err:  `--from-crd: ../../testdata/crds/apps.kruise.io_clonesets.yaml:1: document 1 "clonesets.apps.kruise.io": spec.group: the CRD is for group "apps.kruise.io", not "apps"`,
	}, {
		name: "a version the CRD has not",
		args: []string{"init", t.TempDir(), "--api-version", "apps.kruise.io/v2", "--kind", "CloneSet", "--from-crd", cloneSetCRD},
		err:  `--from-crd: ../../testdata/crds/apps.kruise.io_clonesets.yaml:1: document 1 "clonesets.apps.kruise.io": spec.versions: no version "v2" (the CRD has v1alpha1, v1beta1)`,
	}, {
		name: "not a CRD",
		args: []string{"init", t.TempDir(), "--from-crd", exampleWorkload},
		err:  "--from-crd: ../../testdata/examples/workload.yaml: no apiextensions.k8s.io/v1 CustomResourceDefinition found",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.args...)
			require.Error(t, r.err)
			assert.Equal(t, tt.err, r.err.Error())
		})
	}
}

// TestInitRecordsCRD: init --from-crd records the CRD in the suite's
// crds/ folder, and test validates the suite's cases against it without
// --crd: a misspelt field fails its case.
func TestInitRecordsCRD(t *testing.T) {
	dir := initSuite(t, "--from-crd", cloneSetCRD)
	recorded := filepath.Join(dir, "crds", "clonesets.apps.kruise.io.yaml")
	require.FileExists(t, recorded)
	passes(t, dir)

	health := filepath.Join(dir, "testdata", "interprethealth.yaml")
	data, err := os.ReadFile(health)
	require.NoError(t, err)
	misspelt := strings.Replace(string(data), "\n    replicas: 2\n", "\n    replicas: 2\n    wokers: 2\n", 1)
	require.NotEqual(t, string(data), misspelt)
	require.NoError(t, os.WriteFile(health, []byte(misspelt), 0o644))
	stdout, _, code := runTest(t, dir)
	assert.Equal(t, 1, code, stdout)
	assert.Contains(t, stdout, "does not validate against the CRD "+filepath.Join("crds", "clonesets.apps.kruise.io.yaml")+": spec.wokers: Forbidden: unknown field")

	require.NoError(t, os.WriteFile(recorded, []byte("kind: ConfigMap\n"), 0o644))
	stdout, _, code = runTest(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, filepath.Join(dir, "crds")+": crd "+filepath.Join("crds", "clonesets.apps.kruise.io.yaml")+`: kind "ConfigMap", not CustomResourceDefinition`)
}

// initExceptions are the CRDs of testdata/crds whose scaffolded suite
// fails its own validation, and why.
var initExceptions = map[string]string{
	"helm.toolkit.fluxcd.io_helmreleases.yaml":         "a CEL rule on spec (either chart or chartRef must be set) the sample does not satisfy",
	"helm.toolkit.fluxcd.io_helmreleases_v2beta1.yaml": "a CEL rule on spec (either chart or chartRef must be set) the sample does not satisfy",
}

// TestInitEveryCRD: the suite init writes for each CRD of testdata/crds
// passes luainterp test, which validates its cases against the CRD it
// records, but for initExceptions.
func TestInitEveryCRD(t *testing.T) {
	crds, err := filepath.Glob("../../testdata/crds/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, crds)
	for _, crd := range crds {
		name := filepath.Base(crd)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := initSuite(t, "--from-crd", crd)
			stdout, _, code := runTest(t, dir)
			if reason, ok := initExceptions[name]; ok {
				assert.Equal(t, 1, code, "an exception (%s) that passes: remove it from initExceptions", reason)
				return
			}
			assert.Equal(t, 0, code, stdout)
		})
	}
}
