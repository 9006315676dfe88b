package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestCRD: with --crd, a case's objects must validate against the
// user's CRD as the API server would take them; a misspelt field the
// scripts never notice fails the case.
func TestTestCRD(t *testing.T) {
	crd := "../../testdata/crds/apps.kruise.io_clonesets.yaml"
	suite := filepath.Join(t.TempDir(), "apps.kruise.io", "v1alpha1", "CloneSet")
	require.NoError(t, os.CopyFS(suite, os.DirFS("../../scripts/apps.kruise.io/v1alpha1/CloneSet")))

	stdout, stderr, code := runTest(t, "--crd", crd, "--run", "InterpretHealth/healthy when", suite)
	require.Equal(t, 0, code, stdout+stderr)

	health := filepath.Join(suite, "testdata", "health.yaml")
	data, err := os.ReadFile(health)
	require.NoError(t, err)
	misspelt := strings.Replace(string(data), "replicas: 3}\n", "replicas: 3, wokers: 2}\n", 1)
	require.NoError(t, os.WriteFile(health, []byte(misspelt), 0o644))

	stdout, _, code = runTest(t, "--run", "InterpretHealth/healthy when", suite)
	assert.Equal(t, 0, code, "without --crd the scripts never notice:\n%s", stdout)

	stdout, _, code = runTest(t, "--crd", crd, "--run", "InterpretHealth/healthy when", suite)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "--- FAIL: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/healthy when every replica is updated and available (0.00s)\n")
	assert.Contains(t, stdout, "    observedObj does not validate against the CRD "+crd+": spec.wokers: Forbidden: unknown field: the schema does not declare it, so the API server drops it\n")

	r := run(t, "", "test", "--crd", "no-such.yaml", suite)
	assert.EqualError(t, r.err, "--crd: crd no-such.yaml: open no-such.yaml: no such file or directory")
}

// TestInterpretCheckCRD: with --crd, the linter warns on a field path a
// script uses on its object that the CRD's schema lacks, naming the file
// line, the Lua line and the closest field there is.
func TestInterpretCheckCRD(t *testing.T) {
	hooks := writeFile(t, "cloneset.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: cloneset
spec:
  target:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          local n = obj.spec.replica
          return obj.spec.replicas, {nodeClaim = {nodeSelector = obj.spec.template.spec.nodeSelector}}
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          local status = {}
          return obj.staus.readyReplicas == obj.spec.template.spec.containers[1].name and status.anything == nil
        end
`)
	crd := "../../testdata/crds/apps.kruise.io_clonesets.yaml"
	r := run(t, "", "interpret", "--check", "-f", hooks)
	require.NoError(t, r.err, "without --crd nothing is known of the fields")

	r = run(t, "", "interpret", "--check", "-f", hooks, "--crd", crd)
	require.NoError(t, r.err, "the linter warns")
	assert.Contains(t, r.stdout, "WARN   cloneset  replicaResource           "+hooks+`:13: document 1 "cloneset": spec.customizations.replicaResource.luaScript: Lua line 2: obj.spec.replica: the CRD's schema has no such field (closest: "replicas")`+"\n")
	assert.Contains(t, r.stdout, "WARN   cloneset  healthInterpretation      "+hooks+`:20: document 1 "cloneset": spec.customizations.healthInterpretation.luaScript: Lua line 3: obj.staus: the CRD's schema has no such field (closest: "status")`+"\n")
	assert.NotContains(t, r.stdout, "containers", "a field the schema has is not reported")
	assert.NotContains(t, r.stdout, "anything", "a local table's fields are not the object's")
}
