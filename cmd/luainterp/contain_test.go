package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hostile inputs of the every-call-contained issue, each run by the
// real binary as a process of its own, so that its peak memory is its own:
// each must fail with an error naming the cause, well inside the bounds.
const (
	maxRSS  = 512 << 20        // bytes of peak resident memory
	killAt  = 60 * time.Second // far past the 2 s each takes alone: the test machine may be loaded
	cpuBomb = "1e-1000000000"  // minutes of resource.ParseQuantity before the bound
)

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary builds luainterp without the race detector (which multiplies
// memory) once per test run.
func binary(t testing.TB) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "luainterp-contain")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "luainterp")
		out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = &exec.ExitError{Stderr: out}
		}
	})
	require.NoError(t, binaryErr)
	return binaryPath
}

func hostileDeployment(cpu string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: a
        resources: {requests: {cpu: "` + cpu + `"}}
`
}

func hostileHealth(body string) string {
	return `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: hostile}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    healthInterpretation:
      luaScript: |
        local json = require("json")
        function InterpretHealth(obj)
` + indent(body, "          ") + `
        end
`
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func TestHostileInputsContained(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	tests := []struct {
		name          string
		customization string // "" for the built-in handlers alone
		operation     string
		cpu           string
		want          string
	}{
		{name: "a quantity with a huge exponent, no customization", operation: "InterpretReplica", cpu: cpuBomb,
			want: `spec.template.spec.containers[0].resources.requests.cpu: quantity "1e-1000000000" is too large to parse`},
		{name: "the same through kube.accuratePodRequirements", operation: "InterpretHealth", cpu: cpuBomb,
			customization: hostileHealth(`local kube = require("kube")
return kube.accuratePodRequirements(obj.spec.template) ~= nil`),
			want: `quantity "1e-1000000000" is too large to parse`},
		{name: "string.format reusing one argument", operation: "InterpretHealth", cpu: "1",
			customization: hostileHealth(`return #string.format(string.rep("%[1]s", 10000), string.rep("x", 1000000)) > 0`),
			want:          "invalid option '%[' to 'format'"},
		{name: "a result repeating one big string", operation: "InterpretHealth", cpu: "1",
			customization: hostileHealth(`local s, t = string.rep("x", 30000000), {}
for i = 1, 200 do t[i] = s end
return #json.encode(t) > 0`),
			want: "script's output exceeded its limit: json.encode"},
		{name: "json.decode of a long text", operation: "InterpretHealth", cpu: "1",
			customization: hostileHealth(`return json.decode("[" .. string.rep("1,", 16000000) .. "1]") ~= nil`),
			want:          "script exceeded its memory budget: json.decode of"},
		{name: "a table growing without end", operation: "InterpretHealth", cpu: "1",
			customization: hostileHealth(`local t = {}
while true do t[#t + 1] = {n = #t} end`),
			want: "script exceeded its memory budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			object := filepath.Join(dir, "deployment.yaml")
			require.NoError(t, os.WriteFile(object, []byte(hostileDeployment(tt.cpu)), 0o600))
			args := []string{"interpret", "--operation", tt.operation, "--observed-file", object, "--timeout", "30s"}
			if tt.customization != "" {
				hooks := filepath.Join(dir, "hooks.yaml")
				require.NoError(t, os.WriteFile(hooks, []byte(tt.customization), 0o600))
				args = append(args, "-f", hooks)
			}
			ctx, cancel := context.WithTimeout(context.Background(), killAt)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			elapsed := time.Since(start)
			require.NoError(t, ctx.Err(), "killed after %s", killAt)
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
			assert.Equal(t, 1, exit.ExitCode())
			assert.Contains(t, stderr.String(), tt.want)
			rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10 // KiB on Linux
			assert.Less(t, rss, int64(maxRSS), "peak RSS")
			t.Logf("failed cleanly in %s, peak RSS %d MiB", elapsed.Round(time.Millisecond), rss>>20)
		})
	}
}

// Under serve, a memory bomb in one request never fails the quiet
// requests that run beside it.
func TestServeMemoryBombBesideQuietCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs memory bombs")
	}
	hooks := writeFile(t, "hooks.yaml", hostileHealth(`if obj.metadata.name == "bomb" then
  local t = {}
  while true do t[#t + 1] = string.rep("x", 100000) .. #t end
end
local n = 0
for i = 1, 2000 do n = n + i % 7 end
return n > 0`)) // quiet: well inside the engine's 1 s deadline, even under -race
	s := startServe(t, "-f", hooks, "--timeout", "60s")
	url := "http://" + s.addr + "/interpret"
	quiet := interpreterRequest(t, writeFile(t, "quiet.yaml", deploymentYAML), "InterpretHealth", "")
	bomb := strings.Replace(quiet, `"name":"web"`, `"name":"bomb"`, 1)

	bombs := make(chan map[string]any, 2)
	for range cap(bombs) {
		go func() { bombs <- postReview(t, http.DefaultClient, url, bomb) }()
	}
	failures, calls := 0, 0
	for answered := 0; answered < cap(bombs); {
		select {
		case got := <-bombs:
			answered++
			// Its budget or, on a loaded machine, the engine's deadline stops it.
			assert.Equal(t, false, got["successful"])
			assert.Regexp(t, "script exceeded its memory budget|script ran past its deadline", got["status"].(map[string]any)["message"])
		default:
			calls++
			if got := postReview(t, http.DefaultClient, url, quiet); got["successful"] != true {
				failures++
				t.Log(got)
			}
		}
	}
	t.Logf("%d quiet requests beside 2 memory bombs", calls)
	assert.Zero(t, failures)
	assert.Positive(t, calls)
	require.NoError(t, s.stop(t))
}
