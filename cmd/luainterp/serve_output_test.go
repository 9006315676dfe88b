package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileCustomization's hooks each return a result that is small in Lua
// and tens of MB as JSON: one string many times over, a string of
// escapes, a huge key, or a huge error message.
const hostileCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: hostile
spec:
  target:
    apiVersion: example.io/v1
    kind: Hostile
  customizations:
    statusReflection:
      luaScript: |-
        function ReflectStatus(obj)
          local s, status = string.rep("x", 1000000), {}
          for i = 1, 500 do status["k" .. i] = s end
          return status
        end
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          error(string.rep("e", 10000000))
        end
    replicaRevision:
      luaScript: |-
        function ReviseReplica(obj, replicas)
          obj.spec.note = string.rep("<", 10000000)
          return obj
        end
    retention:
      luaScript: |-
        function Retain(desired, observed)
          desired.spec[string.rep("k", 10000000)] = true
          return desired
        end
    statusAggregation:
      luaScript: |-
        function AggregateStatus(desired, items)
          local t = {s = string.rep("a", 1000)}
          for i = 1, 16 do t = {a = t, b = t} end
          desired.status = t
          return desired
        end
    dependencyInterpretation:
      luaScript: |-
        function GetDependencies(obj)
          local ref, refs = {apiVersion = "v1", kind = "Secret", name = string.rep("n", 1000)}, {}
          for i = 1, 100000 do refs[i] = ref end
          return refs
        end
    componentResource:
      luaScript: |-
        function GetComponents(obj)
          local c, list = {name = "c", replicas = 1, replicaRequirements = {nodeClaim = {nodeSelector = {k = string.rep("v", 1000000)}}}}, {}
          for i = 1, 100 do list[i] = c end
          return list
        end
    replicaResource:
      luaScript: |-
        function GetReplicas(obj)
          local s, selector = string.rep("v", 1000000), {}
          for i = 1, 100 do selector["k" .. i] = s end
          return 1, {nodeClaim = {nodeSelector = selector}}
        end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: encoder
spec:
  target:
    apiVersion: example.io/v1
    kind: Encoder
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return #require("json").encode(string.rep("&", 10000000)) > 0
        end
    statusReflection:
      luaScript: |-
        function ReflectStatus(obj)
          return {text = string.rep("<", 10000000)}
        end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: good
spec:
  target:
    apiVersion: example.io/v1
    kind: Good
  customizations:
    statusReflection:
      luaScript: |-
        function ReflectStatus(obj)
          return {ready = obj.status.ready, note = string.rep("<ok>", 100)}
        end
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status.ready == true
        end
`

// A hostile tenant's hooks beside good traffic on other kinds, through
// serve for a few seconds: every good request is answered, every hostile
// one fails (with the output limit, or ejected once it kept failing), no error or log line
// quotes the hostile text, and the process stays under 512 MiB. Before
// the output limit, one request of the status hook answered 500 MB.
func TestServeOutputLimitSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak of several seconds")
	}
	// Hooks are not ejected, so that the hostile ones run all along.
	s := startServe(t, "-f", writeFile(t, "hostile.yaml", hostileCustomization), "--outlier-hooks=false")
	url := "http://" + s.addr
	object := func(kind string) string {
		return writeFile(t, strings.ToLower(kind)+".yaml", "apiVersion: example.io/v1\nkind: "+kind+"\nmetadata:\n  name: x\n  namespace: default\nspec:\n  replicas: 1\nstatus:\n  ready: true\n")
	}
	hostile, encoder, good := object("Hostile"), object("Encoder"), object("Good")
	observed := `"observedObject":{"apiVersion":"example.io/v1","kind":"Hostile","metadata":{"name":"x"}}`
	hostileRequests := []string{
		interpreterRequest(t, hostile, "InterpretStatus", ""),
		interpreterRequest(t, hostile, "InterpretHealth", ""),
		interpreterRequest(t, hostile, "ReviseReplica", `"replicas":2`),
		interpreterRequest(t, hostile, "Retain", observed),
		interpreterRequest(t, hostile, "AggregateStatus", `"aggregatedStatus":[]`),
		interpreterRequest(t, hostile, "InterpretDependency", ""),
		interpreterRequest(t, hostile, "InterpretComponent", ""),
		interpreterRequest(t, hostile, "InterpretReplica", ""),
		interpreterRequest(t, encoder, "InterpretHealth", ""),
		interpreterRequest(t, encoder, "InterpretStatus", ""),
	}
	deployment := writeFile(t, "deployment.yaml", deploymentYAML)
	goodRequests := []string{
		interpreterRequest(t, good, "InterpretStatus", ""),
		interpreterRequest(t, good, "InterpretHealth", ""),
		interpreterRequest(t, deployment, "InterpretReplica", ""),
		interpreterRequest(t, deployment, "ReviseReplica", `"replicas":3`),
	}

	// serve runs in the test binary: what earlier tests of the package
	// freed is given back first, so that the peak is the soak's.
	debug.FreeOSMemory()
	base := procStatus(t, "VmRSS")
	var rss rssSampler
	rss.start()
	var (
		mu                      sync.Mutex
		goodFailures            []string
		hostileAnswers          = map[string]int{}
		goodCount, hostileCount atomic.Int64
		longestMessage          atomic.Int64
	)
	deadline := time.Now().Add(8 * time.Second)
	var wg sync.WaitGroup
	for w := range 4 { // good traffic
		wg.Go(func() {
			for i := w; time.Now().Before(deadline) && goodCount.Load() < 4000; i++ {
				code, resp, err := review(url, goodRequests[i%len(goodRequests)])
				goodCount.Add(1)
				if err != nil || code != http.StatusOK || resp["successful"] != true {
					mu.Lock()
					goodFailures = append(goodFailures, fmt.Sprintf("%d %v %.300v", code, err, resp))
					mu.Unlock()
				}
			}
		})
	}
	for w := range 2 { // the hostile tenant
		wg.Go(func() {
			for i := w; time.Now().Before(deadline); i++ {
				code, resp, err := review(url, hostileRequests[i%len(hostileRequests)])
				hostileCount.Add(1)
				outcome := "answered"
				if err != nil {
					outcome = "error: " + err.Error()
				} else if resp["successful"] != true {
					status, _ := resp["status"].(map[string]any)
					message, _ := status["message"].(string)
					longestMessage.Store(max(longestMessage.Load(), int64(len(message))))
					switch {
					case strings.Contains(message, "as JSON (the output limit)"):
						outcome = "output limit"
					case strings.Contains(message, "cut to 4 KiB"):
						outcome = "error message cut"
					case strings.Contains(message, "past its deadline"): // 30 MB to build and cut on a busy machine
						outcome = "deadline"
					case code == http.StatusServiceUnavailable:
						outcome = "ejected"
					default:
						outcome = fmt.Sprintf("failed %d: %.200s", code, message)
					}
				}
				mu.Lock()
				hostileAnswers[outcome]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	peak := rss.finish()
	hwm := procStatus(t, "VmHWM")
	t.Logf("%d good requests, %d failed; %d hostile: %v; RSS %d MiB at the start, at most %d MiB while soaking (VmHWM %d MiB); longest hostile message %d bytes",
		goodCount.Load(), len(goodFailures), hostileCount.Load(), hostileAnswers, base>>20, peak>>20, hwm>>20, longestMessage.Load())

	assert.Empty(t, goodFailures, "good requests failed")
	assert.Greater(t, goodCount.Load(), int64(100))
	assert.Zero(t, hostileAnswers["answered"], "hostile requests answered")
	assert.Positive(t, hostileAnswers["output limit"])
	assert.Positive(t, hostileAnswers["error message cut"])
	for outcome := range hostileAnswers {
		assert.Contains(t, []string{"output limit", "error message cut", "deadline", "ejected"}, outcome)
	}
	assert.Less(t, longestMessage.Load(), int64(8<<10), "a hostile answer quotes the script's text")
	// The test binary holds the package's other tests (and, under -race,
	// the detector's shadow memory): what counts is what the soak added.
	assert.Less(t, peak-min(peak, base), uint64(512<<20), "the server's RSS grew past 512 MiB")
	for line := range strings.Lines(s.stderr.String()) {
		require.Less(t, len(line), 16<<10, "a log line of %d bytes: %.200s", len(line), line)
	}
}

// review POSTs a ResourceInterpreterContext and returns the HTTP status
// and the response in it.
func review(url, body string) (int, map[string]any, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var r struct{ Response map[string]any }
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%d bytes: %w", len(data), err)
	}
	return resp.StatusCode, r.Response, nil
}

// rssSampler records the largest resident set of the process (serve runs
// in it) while a test runs, from /proc/self/status every 10 ms: VmHWM
// would count what earlier tests of the binary left.
type rssSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

func (r *rssSampler) start() {
	if runtime.GOOS != "linux" {
		return
	}
	r.stop = make(chan struct{})
	r.done.Go(func() {
		for {
			if rss, err := readProcStatus("self", "VmRSS"); err == nil {
				r.peak = max(r.peak, rss)
			}
			select {
			case <-r.stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
}

func (r *rssSampler) finish() uint64 {
	if r.stop != nil {
		close(r.stop)
		r.done.Wait()
	}
	return r.peak
}

// procStatus reads a size of /proc/self/status, 0 off Linux.
func procStatus(t *testing.T, field string) uint64 {
	if runtime.GOOS != "linux" {
		return 0
	}
	n, err := readProcStatus("self", field)
	require.NoError(t, err)
	return n
}

// readProcStatus reads a size of /proc/<process>/status: process is a
// pid, or "self".
func readProcStatus(process, field string) (uint64, error) {
	f, err := os.Open("/proc/" + process + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && name == field {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%s/status", field, process)
}
