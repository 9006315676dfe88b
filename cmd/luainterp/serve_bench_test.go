package main

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// widgetCustomization is a well-behaved Lua kind, beside the built-in
// Deployment and the hostile Hog of hogCustomization.
const widgetCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status ~= nil and obj.status.ready == true
        end
`

// loadFigures are what one class of requests got under a bounded load.
type loadFigures struct {
	latencies []time.Duration
	statuses  map[int]int // HTTP status -> count; 0 for a connection error
	elapsed   time.Duration
}

func (f *loadFigures) rps() float64 { return float64(len(f.latencies)) / f.elapsed.Seconds() }

// p returns the p-th percentile latency in milliseconds.
func (f *loadFigures) p(p int) float64 {
	if len(f.latencies) == 0 {
		return 0
	}
	ds := slices.Clone(f.latencies)
	slices.Sort(ds)
	return float64(ds[(len(ds)-1)*p/100]) / float64(time.Millisecond)
}

// errors counts the answers that are not HTTP 200 with a successful response.
func (f *loadFigures) errors() int { return len(f.latencies) - f.statuses[http.StatusOK] }

// drive sends body from clients goroutines, each until it sent n or
// until stop is closed, and returns what they got. An answer that is not
// a successful response counts under its HTTP status, -1 for HTTP 200
// with successful false; pause is the client's pause after a refusal.
func drive(url, body string, clients, n int, stop <-chan struct{}, pause time.Duration) *loadFigures {
	f := &loadFigures{statuses: map[int]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			for range n {
				select {
				case <-stop:
					return
				default:
				}
				t := time.Now()
				status := 0
				resp, err := client.Post(url, "application/json", strings.NewReader(body))
				if err == nil {
					data, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					status = resp.StatusCode
					if status == http.StatusOK && !strings.Contains(string(data), `"successful":true`) {
						status = -1
					}
				}
				took := time.Since(t)
				mu.Lock()
				f.latencies = append(f.latencies, took)
				f.statuses[status]++
				mu.Unlock()
				if status != http.StatusOK && pause > 0 {
					time.Sleep(pause)
				}
			}
		})
	}
	wg.Wait()
	f.elapsed = time.Since(start)
	return f
}

// BenchmarkServeUnderAttack serves a built-in kind (Deployment), a
// well-behaved Lua kind (Widget) and a hostile Lua hook (Hog, a loop to
// the engine's 1 s deadline) over HTTP on 127.0.0.1, and measures the two
// well-behaved classes side by side (4 clients each, at most 2000
// requests or 6 s per class): alone (baseline), then while 50 clients
// keep calling the hostile hook (pausing 100 ms after each refusal). It
// does so without protection (bulkheads far larger than the engine's
// pool, no hook breaker), with the defaults (bulkheads of half the pool's
// slots and 128 pending per hook, a hook breaker ejecting after 5
// deadlines in a row),
// with a bulkhead of 1 slot and 16 pending per hook, and with that
// bulkhead and the hook breaker (timed once the hook is ejected); it prints
// req/s, p50 and p99 and errors per class, and how the hostile calls were
// answered. Each latency is its client's, HTTP included.
//
//	make bench-overload
func BenchmarkServeUnderAttack(b *testing.B) {
	noHookBreakers := writeFile(b, "no-hook-breakers.yaml", "outlier_detection: {hooks: false}\n")
	cases := []struct {
		name   string
		args   []string
		ejects bool // the hook breaker ejects the hostile hook: wait for it
	}{
		{"unprotected", []string{"--config", noHookBreakers, "--max-requests", "100000", "--max-pending", "0"}, false},
		{"defaults", nil, true},
		{"bulkhead", []string{"--config", noHookBreakers, "--max-requests", "1", "--max-pending", "16"}, false},
		{"bulkhead+breaker", []string{"--max-requests", "1", "--max-pending", "16"}, true},
	}
	deployment := interpreterRequest(b, writeFile(b, "deployment.yaml", deploymentYAML), "InterpretHealth", "")
	widget := interpreterRequest(b, writeFile(b, "widget.yaml", "apiVersion: example.io/v1\nkind: Widget\nmetadata: {name: w}\nstatus: {ready: true}\n"), "InterpretHealth", "")
	hog := interpreterRequest(b, writeFile(b, "hog-object.yaml", "apiVersion: example.io/v1\nkind: Hog\nmetadata: {name: h}\n"), "InterpretHealth", "")
	customizations := writeFile(b, "kinds.yaml", widgetCustomization+"---\n"+hogCustomization)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := startServe(b, append([]string{"-f", customizations, "--engine-deadline", "1s", "--access-log", "/dev/null"}, c.args...)...)
			url := "http://" + s.addr
			for range b.N {
				measure := func(phase string) {
					timeout := make(chan struct{})
					timer := time.AfterFunc(6*time.Second, func() { close(timeout) })
					defer timer.Stop()
					var builtin, lua *loadFigures
					var wg sync.WaitGroup
					wg.Go(func() { builtin = drive(url, deployment, 4, 500, timeout, 0) })
					wg.Go(func() { lua = drive(url, widget, 4, 500, timeout, 0) })
					wg.Wait()
					for _, class := range []struct {
						name string
						f    *loadFigures
					}{{"built-in", builtin}, {"lua", lua}} {
						b.Logf("%-11s %-8s %7.0f req/s  p50 %7.2f ms  p99 %8.2f ms  errors %d of %d",
							c.name+"/"+phase, class.name, class.f.rps(), class.f.p(50), class.f.p(99), class.f.errors(), len(class.f.latencies))
						b.ReportMetric(class.f.rps(), phase+"-"+class.name+"-req/s")
						b.ReportMetric(class.f.p(99), phase+"-"+class.name+"-p99-ms")
					}
				}
				measure("baseline")

				stopAttack := make(chan struct{})
				attack := make(chan *loadFigures, 1)
				go func() { attack <- drive(url, hog, 50, 1000, stopAttack, 100*time.Millisecond) }()
				time.Sleep(1500 * time.Millisecond) // the hostile calls fill the engine's states
				if c.ejects {
					deadline := time.Now().Add(20 * time.Second)
					for time.Now().Before(deadline) && !strings.Contains(metricsOf(url), `luainterp_breaker_state{name="InterpretHealth hook for example.io/v1, Kind=Hog (customization layer)",target="hook"} 1`) {
						time.Sleep(50 * time.Millisecond)
					}
				}
				measure("attacked")
				close(stopAttack)
				h := <-attack
				refused := &loadFigures{}
				for _, d := range h.latencies {
					if d < time.Second/2 {
						refused.latencies = append(refused.latencies, d)
					}
				}
				b.Logf("%-11s hostile  %d calls: %s; p99 %.0f ms; %d answered in under 500 ms, their p99 %.2f ms",
					c.name, len(h.latencies), statusCounts(h.statuses), h.p(99), len(refused.latencies), refused.p(99))
				b.ReportMetric(h.p(99), "hostile-p99-ms")
			}
		})
	}
}

// metricsOf returns the text of url's /metrics, empty on an error.
func metricsOf(url string) string {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// statusCounts writes the statuses of a load in order: "503: 12, 200: 3".
func statusCounts(statuses map[int]int) string {
	keys := slices.Sorted(maps.Keys(statuses))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		name := fmt.Sprint("HTTP ", k)
		switch k {
		case 0:
			name = "connection error"
		case -1:
			name = "HTTP 200 failed"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, statuses[k]))
	}
	return strings.Join(parts, ", ")
}
