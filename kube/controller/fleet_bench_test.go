package controller_test

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/kube/controller"
)

// fleetSizes are BenchmarkFleet's sizes: bindings × clusters.
var fleetSizes = []struct{ bindings, clusters int }{{1000, 10}, {5000, 20}}

// BenchmarkFleet measures the controller at fleet size against the test
// API server: N Deployment bindings over M clusters, each binding
// targeting every cluster (N×M Works). Run one size per test binary (each
// gets an API server of its own), with -benchtime 1x: make bench-fleet.
//
//   - first pass: a controller started on the bindings and templates
//     creates every Work; works/s is N×M over the time from its start to
//     the last Work written, req/binding every request it sent until
//     then (lists and watches included) over N;
//   - memory, once the first pass is quiet (both queues empty): the
//     process's live heap after a GC less the one before the controller
//     started, per Work and per binding, and the process's RSS;
//   - restart: a second controller started on the result, timed until it
//     has reconciled and status-passed every binding and both queues are
//     empty; it must write nothing. Its requests are logged per verb and
//     resource; the lists (LISTs and watches) of the most listed resource
//     and the GETs of Works are reported.
func BenchmarkFleet(b *testing.B) {
	for _, size := range fleetSizes {
		b.Run(fmt.Sprintf("%dx%d", size.bindings, size.clusters), func(b *testing.B) {
			for range b.N {
				benchFleet(b, size.bindings, size.clusters)
			}
		})
	}
}

func benchFleet(b *testing.B, bindings, clusters int) {
	b.StopTimer()
	if os.Getenv("FLEET_HEAPPROFILE") != "" {
		runtime.MemProfileRate = 4096 // the controller's objects are a few hundred bytes each
	}
	c := newCluster(b)
	setup := rest.CopyConfig(c.cfg)
	setup.QPS, setup.Burst = -1, 0 // the API server is ours alone, on loopback
	c.dynamic = dynamic.NewForConfigOrDie(setup)
	ns := fmt.Sprintf("fleet-%d", bindings)
	c.namespace(ns)
	c.createAll(benchObjects(b, ns, bindings, c.benchClusters("fleet", clusters)))
	works := float64(bindings * clusters)

	heap0, _ := liveHeap()
	requests := &requestCounter{}
	cfg := rest.CopyConfig(c.cfg)
	cfg.QPS, cfg.Burst = 2000, 4000
	cfg.Wrap(requests.wrap)

	b.StartTimer()
	start := time.Now()
	m, stop, _ := runController(b, cfg)
	waitFor(b, func() bool { return counter(b, m, "luainterp_controller_works_written_total", nil) >= works })
	firstPass := time.Since(start)
	firstRequests := requests.total()
	b.StopTimer()
	waitQuiet(b, m, bindings)
	heap, rss := liveHeap()
	writeHeapProfile(b, fmt.Sprintf("%dx%d", bindings, clusters))
	stop()

	requests.reset()
	b.StartTimer()
	start = time.Now()
	m, stop, _ = runController(b, cfg)
	waitQuiet(b, m, bindings)
	restart := time.Since(start)
	b.StopTimer()
	stop()
	restartWrites := writes(b, m) + counter(b, m, "luainterp_controller_binding_status_writes_total", nil) +
		counter(b, m, "luainterp_controller_template_status_writes_total", nil)

	b.ReportMetric(works/firstPass.Seconds(), "first-pass-works/s")
	b.ReportMetric(float64(firstRequests)/float64(bindings), "first-pass-req/binding")
	b.ReportMetric(float64(heap-heap0)/works, "heap-B/work")
	b.ReportMetric(float64(heap-heap0)/float64(bindings), "heap-B/binding")
	b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
	b.ReportMetric(restart.Seconds(), "restart-quiet-s")
	b.ReportMetric(restartWrites, "restart-writes")
	b.ReportMetric(float64(requests.lists()), "restart-lists/resource")
	b.ReportMetric(float64(requests.count("get", "works")), "restart-work-gets")
	b.ReportMetric(float64(requests.total())/float64(bindings), "restart-req/binding")
	b.Logf("%d bindings × %d clusters: first pass %s, heap %d MiB (before the controller %d MiB), RSS %d MiB; restart to quiet %s, requests: %s",
		bindings, clusters, firstPass.Round(time.Millisecond), heap>>20, heap0>>20, rss>>20, restart.Round(time.Millisecond), requests)
}

// waitQuiet waits until every binding has been reconciled and passed
// through the status loop, and both queues have stayed empty for a
// second.
func waitQuiet(b *testing.B, m *controller.Metrics, bindings int) {
	var since time.Time
	waitFor(b, func() bool {
		done := reconciles(b, m) >= float64(bindings) &&
			counter(b, m, "luainterp_controller_status_passes_total", nil) >= float64(bindings) &&
			counter(b, m, "luainterp_controller_queue_depth", nil) == 0 &&
			counter(b, m, "luainterp_controller_status_queue_depth", nil) == 0
		switch {
		case !done:
			since = time.Time{}
		case since.IsZero():
			since = time.Now()
		}
		return done && time.Since(since) >= time.Second
	})
}

// liveHeap returns the live heap after a collection, and the process's
// resident set.
func liveHeap() (heap, rss uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	data, _ := os.ReadFile("/proc/self/status")
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			rss = kb << 10
		}
	}
	return ms.HeapAlloc, rss
}

// writeHeapProfile writes the heap profile (of the last collection:
// liveHeap's) to $FLEET_HEAPPROFILE-size.pprof when that is set, for
// `go tool pprof -sample_index=inuse_space`.
func writeHeapProfile(b *testing.B, size string) {
	prefix := os.Getenv("FLEET_HEAPPROFILE")
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-" + size + ".pprof")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// requestCounter counts the requests sent through its transport by verb
// (get, list, watch, create, update, patch, delete) and resource, as the
// API server's own request info names them.
type requestCounter struct {
	mu     sync.Mutex
	counts map[string]int // "verb resource[/subresource]" → requests
}

var requestInfo = &request.RequestInfoFactory{
	APIPrefixes:          sets.NewString("api", "apis"),
	GrouplessAPIPrefixes: sets.NewString("api"),
}

func (r *requestCounter) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		info, err := requestInfo.NewRequestInfo(req)
		if err == nil {
			resource := info.Resource
			if info.Subresource != "" {
				resource += "/" + info.Subresource
			}
			r.mu.Lock()
			if r.counts == nil {
				r.counts = map[string]int{}
			}
			r.counts[info.Verb+" "+resource]++
			r.mu.Unlock()
		}
		return next.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func (r *requestCounter) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts = nil
}

func (r *requestCounter) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, v := range r.counts {
		n += v
	}
	return n
}

func (r *requestCounter) count(verb, resource string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts[verb+" "+resource]
}

// lists is the most lists sent for one resource: LISTs and watches (an
// informer's list is a watch that sends the initial objects first, when
// the API server streams lists).
func (r *requestCounter) lists() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	per := map[string]int{}
	for k, v := range r.counts {
		verb, resource, _ := strings.Cut(k, " ")
		if verb == "list" || verb == "watch" {
			per[resource] += v
		}
	}
	return slices.Max(append(slices.Collect(maps.Values(per)), 0))
}

func (r *requestCounter) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r.counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.counts[k]))
	}
	return strings.Join(parts, ", ")
}
