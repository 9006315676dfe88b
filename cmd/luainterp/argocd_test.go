package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	fixtureArgoCDTree = "../../testdata/argocd"
	argocdCMTree      = "../../testdata/argocd-cm"
	argocdObjects     = fixtureArgoCDTree + "/resource_customizations"
	argocdConfigMap   = argocdCMTree + "/argocd-cm.yaml"
)

func TestTestArgoCDFormatDetected(t *testing.T) {
	for _, dir := range []string{fixtureArgoCDTree, argocdCMTree, "../../examples/argocd"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			stdout, stderr, code := runTest(t, dir)
			assert.Equal(t, 0, code, stdout)
			assert.Empty(t, stderr)
			assert.NotContains(t, stdout, "FAIL")
		})
	}
	stdout, _, code := runTest(t, "--format", "karmada", fixtureArgoCDTree)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "no suite (a folder with customizations.yaml and testdata/)", "run as Karmada suites, the tree holds none")
}

func TestTestArgoCDWrongExpectation(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(fixtureArgoCDTree)))
	file := filepath.Join(dir, "resource_customizations/batch/Job/health_test.yaml")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(data), "status: Suspended", "status: Healthy", 1)), 0o644))

	stdout, _, code := runTest(t, "--format", "argocd", "--run", "batch/Job/", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, `--- FAIL: batch/Job/health/testdata/suspended.yaml (0.00s)
    `+file+`:14
    diff (-expected +actual):
        healthStatus.status:
        - Healthy
        + Suspended
`)
	assert.Contains(t, stdout, "3 passed, 1 failed, 62 skipped\n")

	stdout, _, code = runTest(t, "-o", "json", "--run", "batch/Job/health/testdata/suspended", dir)
	assert.Equal(t, 1, code)
	var got struct {
		Suites []struct {
			Name  string
			Cases []struct{ Name, Status, Operation string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.NotEmpty(t, got.Suites)
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			if c.Name == "batch/Job/health/testdata/suspended.yaml" {
				assert.Equal(t, "fail", c.Status)
				assert.Equal(t, "InterpretHealth", c.Operation)
				return
			}
		}
	}
	t.Fatal("no suspended case in the JSON report")
}

func TestArgoCDCommands(t *testing.T) {
	tree := []string{"--argocd-customizations", fixtureArgoCDTree}
	r := run(t, "", append([]string{"argocd", "health", argocdObjects + "/argoproj.io/Rollout/testdata/paused.yaml"}, tree...)...)
	require.NoError(t, r.err)
	assert.Equal(t, "healthy: true\nmessage: 'Rollout is paused: CanaryPauseStep, InconclusiveAnalysis'\nstatus: Suspended\n", r.stdout)

	r = run(t, "", append([]string{"argocd", "health", argocdObjects + "/_.crossplane.io/_/testdata/no-ready.yaml"}, tree...)...)
	require.NoError(t, r.err)
	assert.Equal(t, "message: No Ready condition\nstatus: Unknown\n", r.stdout, "Unknown has no InterpretHealth answer")

	r = run(t, "", append([]string{"argocd", "action", "run", "scale", "--param", "replicas=5", "-o", "json", argocdObjects + "/apps/Deployment/actions/testdata/deployment.yaml"}, tree...)...)
	require.NoError(t, r.err)
	var res struct {
		List      bool
		Resources []struct {
			Operation string
			Resource  struct {
				Spec struct {
					Replicas int
					Template struct {
						Spec struct {
							Containers []map[string]any
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	assert.False(t, res.List)
	require.Len(t, res.Resources, 1)
	assert.Equal(t, "patch", res.Resources[0].Operation)
	assert.Equal(t, 5, res.Resources[0].Resource.Spec.Replicas)
	assert.Equal(t, map[string]any{}, res.Resources[0].Resource.Spec.Template.Spec.Containers[0]["resources"], "an empty object of the input stays one")

	r = run(t, "", append([]string{"argocd", "action", "run", "scale", "--param", "replicas=x", argocdObjects + "/apps/Deployment/actions/testdata/deployment.yaml"}, tree...)...)
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "apps/Deployment/actions/scale/action.lua (line 3): invalid number: x")

	r = run(t, "", "argocd", "action", "list", "--argocd-cm", argocdConfigMap, argocdCMTree+"/resource_customizations/example.com/Gadget/testdata/broken.yaml")
	require.NoError(t, r.err)
	assert.Equal(t, "- disabled: false\n  displayName: \"\"\n  iconClass: fa fa-fw fa-wrench\n  name: repair\n", r.stdout)
}

func TestArgoCDLayer(t *testing.T) {
	paused := argocdObjects + "/operator.example.org/_/testdata/paused.yaml"
	r := run(t, "", "interpret", "--operation", "InterpretHealth", "--observed-file", paused, "--argocd-customizations", fixtureArgoCDTree)
	require.NoError(t, r.err)
	assert.Equal(t, "argocdHealth:\n  message: Cache is paused\n  status: Suspended\nhealthy: true\n", r.stdout)

	r = run(t, "", "interpret", "--operation", "InterpretHealth", "--observed-file", paused)
	require.Error(t, r.err, "without the flag no layer answers")

	r = run(t, "", "layers", "--object-file", paused, "--argocd-customizations", fixtureArgoCDTree)
	require.NoError(t, r.err)
	assert.Contains(t, r.stdout, "InterpretHealth      argocd\n")
	assert.Contains(t, r.stdout, "InterpretReplica     -\n")

	r = run(t, "", "layers", "--object-file", argocdObjects+"/apps/Deployment/testdata/healthy.yaml", "--argocd-customizations", fixtureArgoCDTree)
	require.NoError(t, r.err)
	assert.Contains(t, r.stdout, "InterpretHealth      builtin\n", "a kind another layer covers keeps its answer")
}

func TestArgoCDCheck(t *testing.T) {
	cm := writeFile(t, "argocd-cm.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: argocd-cm}
data:
  resource.customizations.health.example.com_Bad: |
    return {status = "Healthy"
  resource.customizations.health.example.com_Typo: |
    return {status = objj.status}
`)
	r := run(t, "", "argocd", "check", "--argocd-cm", cm)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, `ERROR `+cm+`: resource.customizations.health.example.com_Bad: syntax error: unexpected end of the script (syntax error)
WARN  `+cm+`: resource.customizations.health.example.com_Typo: Lua line 1: global "objj" is read but never assigned, and the sandbox has none
`, r.stdout)
}

func TestTestArgoCDReports(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(fixtureArgoCDTree)))
	file := filepath.Join(dir, "resource_customizations/batch/Job/health_test.yaml")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(data), "- healthStatus:", "- note: an Argo CD test ignores this key\n  healthStatus:", 1)), 0o644))

	stdout, _, code := runTest(t, "--run", "batch/Job/", dir)
	assert.Equal(t, 0, code, stdout)
	stdout, _, code = runTest(t, "--strict", "--run", "batch/Job/", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, `json: unknown field "note"`)

	lcov := filepath.Join(t.TempDir(), "lcov.info")
	junit := filepath.Join(t.TempDir(), "junit.xml")
	_, _, code = runTest(t, "--coverage-out", lcov, "--junit", junit, "--coverage-min", "90", "--run", "batch/", fixtureArgoCDTree)
	assert.Equal(t, 1, code, "the other kinds' scripts did not run")
	cov, err := os.ReadFile(lcov)
	require.NoError(t, err)
	assert.Contains(t, string(cov), "SF:"+fixtureArgoCDTree+"/resource_customizations/batch/CronJob/actions/create-job/action.lua\n")
	report, err := os.ReadFile(junit)
	require.NoError(t, err)
	assert.Contains(t, string(report), `<testcase name="action/create-job/testdata/cronjob.yaml" classname="batch/CronJob"`)
}
