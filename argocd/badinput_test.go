package argocd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/testsuite"
)

// copyTree copies the fixture tree into a temporary folder and applies
// edits (file relative to the tree → text replaced → by).
func copyTree(t *testing.T, edits ...[3]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(fixtureTree)))
	for _, e := range edits {
		path := filepath.Join(dir, "resource_customizations", e[0])
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Contains(t, string(data), e[1], "edit of %s", e[0])
		require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), e[1], e[2], 1)), 0o644))
	}
	return dir
}

// byName returns the results by name, failing on a name missing.
func byName(t *testing.T, results []*testsuite.Result, names ...string) []*testsuite.Result {
	t.Helper()
	var out []*testsuite.Result
	for _, name := range names {
		found := false
		for _, r := range results {
			if r.Name == name {
				out, found = append(out, r), true
			}
		}
		require.True(t, found, "no case %s", name)
	}
	return out
}

func TestWrongExpectationsFail(t *testing.T) {
	dir := copyTree(t,
		[3]string{"apps/Deployment/health_test.yaml", "status: Suspended", "status: Healthy"},
		[3]string{"batch/Job/health_test.yaml", "message: BackoffLimitExceeded", "message: Backoff"},
		[3]string{"apps/Deployment/actions/testdata/deployment-scaled.yaml", "replicas: 6", "replicas: 7"},
		[3]string{"apps/Deployment/actions/action_test.yaml", "expectedErrorMessage: 'invalid number: x'", "expectedErrorMessage: 'invalid: x'"},
		[3]string{"apps/Deployment/actions/action_test.yaml", "iconClass: fa fa-fw fa-redo", "iconClass: fa-redo"},
		[3]string{"batch/CronJob/actions/testdata/job.yaml", "image: busybox", "image: alpine"},
		[3]string{"argoproj.io/Rollout/actions/testdata/resumed.yaml", "pauseConditions: null", "pauseConditions: []"},
	)
	results := runTree(t, dir)
	want := map[string]string{
		"apps/Deployment/health/testdata/paused.yaml":             "healthStatus.status",
		"batch/Job/health/testdata/failed.yaml":                   "healthStatus.message",
		"apps/Deployment/action/scale/testdata/deployment.yaml":   "spec.replicas",
		"apps/Deployment/discovery/testdata/deployment.yaml":      "result[1]",
		"apps/Deployment/action/scale/testdata/deployment.yaml#2": "expectedErrorMessage",
		"batch/CronJob/action/create-job/testdata/cronjob.yaml":   "create[Job/nightly].spec.template.spec.containers[0].image",
		"argoproj.io/Rollout/action/resume/testdata/paused.yaml":  "status.pauseConditions",
	}
	failed := 0
	for _, r := range results {
		if r.Status == testsuite.Fail {
			failed++
		}
		path, ok := want[r.Name]
		if !ok {
			continue
		}
		assert.Equal(t, testsuite.Fail, r.Status, r.Name)
		if assert.NotEmpty(t, r.Differences, r.Name) {
			assert.Equal(t, path, r.Differences[0].Path, r.Name)
		}
	}
	assert.Equal(t, len(want), failed, "no other case fails")
}

func TestBadInputFailsItsCasesOnly(t *testing.T) {
	dir := copyTree(t,
		[3]string{"apps/StatefulSet/health.lua", "return {status = \"Healthy\", message = \"All pods ready\"}", "return {status = \"Healthy\" message = 1}"},
		[3]string{"apps/DaemonSet/health.lua", "return {status = \"Healthy\"}", "while true do end"},
		[3]string{"batch/Job/health_test.yaml", "tests:", "tests: [\n"},
		[3]string{"PersistentVolumeClaim/health.lua", "return {status = \"Healthy\"}", "return obj.status.phase"},
	)
	results := runTree(t, dir)
	failures := map[string]string{}
	passed := 0
	for _, r := range results {
		switch r.Status {
		case testsuite.Fail:
			failures[r.Name] = strings.Join(r.Failures, "; ")
		case testsuite.Pass:
			passed++
		}
	}
	assert.Greater(t, passed, 40, "the other cases still run")
	sts := filepath.Join(dir, "resource_customizations/apps/StatefulSet/health.lua")
	assert.Equal(t, "health check failed: "+sts+` (line 12): syntax error near "message": syntax error`,
		failures["apps/StatefulSet/health/testdata/ready.yaml"])
	assert.Contains(t, failures["apps/DaemonSet/health/testdata/available.yaml"], "apps/DaemonSet/health.lua InterpretHealth (line 11): ")
	assert.Contains(t, failures["apps/DaemonSet/health/testdata/available.yaml"], "script ran past its deadline")
	assert.Contains(t, failures["batch/Job/health_test.yaml"], filepath.Join(dir, "resource_customizations/batch/Job/health_test.yaml")+": ")
	assert.Equal(t, "health check failed: "+filepath.Join(dir, "resource_customizations/PersistentVolumeClaim/health.lua")+": expect table output from Lua script, not string",
		failures["PersistentVolumeClaim/health/testdata/bound.yaml"])
}
