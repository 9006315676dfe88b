package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	apirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/shard"
)

// replicaLog is a reverse proxy to the API server for one controller
// replica: it records the replica's writes of Works and bindings (which
// object, when) and counts the bytes the API server sent it.
type replicaLog struct {
	id       string
	mu       sync.Mutex
	writes   []objectWrite
	received map[string]int64 // bytes the API server sent, by requestKind
	access   []string         // every request: start, method, path, status, duration
	inflight atomic.Int32     // writes sent on and not answered yet
}

func (l *replicaLog) logAccess(start time.Time, r *http.Request, code int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.access = append(l.access, fmt.Sprintf("%s < %s %s %d %s", start.Format("15:04:05.000"), r.Method, r.URL.RequestURI(), code, time.Since(start).Round(time.Millisecond)))
}

type objectWrite struct {
	at       time.Time
	verb     string // POST, PUT, PATCH, DELETE
	resource string // works, resourcebindings (status writes included)
	ns, name string
	code     int // the API server's response status
}

// statusRecorder keeps the status code written through it.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// recordedWrite reports whether r writes a Work or a ResourceBinding (its
// status included), the writes a replicaLog records, and parses it.
func recordedWrite(r *http.Request) (*apirequest.RequestInfo, bool) {
	if r.Method == http.MethodGet {
		return nil, false
	}
	info, err := requestInfos.NewRequestInfo(r)
	return info, err == nil && info.IsResourceRequest && info.APIGroup == "work.karmada.io" &&
		(info.Resource == "works" || info.Resource == "resourcebindings")
}

// proxy serves the API server of cfg on 127.0.0.1 without authentication
// and returns a kubeconfig file for it.
func (l *replicaLog) proxy(t testing.TB, cfg *rest.Config) string {
	t.Helper()
	target, err := url.Parse(cfg.Host)
	require.NoError(t, err)
	// HTTP/1.1, a connection per request: over the HTTP/2 connection
	// client-go shares among the proxies, the watches of a stopped
	// replica, unread, would stall every proxy's requests.
	cfg = rest.CopyConfig(cfg)
	cfg.NextProtos = []string{"http/1.1"}
	transport, err := rest.TransportFor(cfg)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = transport
	rp.FlushInterval = -1
	rp.ModifyResponse = func(resp *http.Response) error {
		resp.Body = &countingBody{ReadCloser: resp.Body, log: l, kind: requestKind(resp.Request)}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		l.mu.Lock()
		l.access = append(l.access, fmt.Sprintf("%s > %s %s", began.Format("15:04:05.000"), r.Method, r.URL.RequestURI()))
		l.mu.Unlock()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		defer func() { l.logAccess(began, r, rec.code) }()
		w = rec
		if info, ok := recordedWrite(r); ok {
			at := time.Now()
			name := info.Name
			if r.Method == http.MethodPost && r.Body != nil {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				var meta struct {
					Metadata struct{ Name string } `json:"metadata"`
				}
				_ = json.Unmarshal(body, &meta)
				name = meta.Metadata.Name
			}
			l.inflight.Add(1)
			defer l.inflight.Add(-1)
			rp.ServeHTTP(rec, r)
			l.mu.Lock()
			l.writes = append(l.writes, objectWrite{at: at, verb: r.Method, resource: info.Resource, ns: info.Namespace, name: name, code: rec.code})
			l.mu.Unlock()
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	kc := clientcmdapi.NewConfig()
	kc.Clusters["proxy"] = &clientcmdapi.Cluster{Server: srv.URL}
	kc.AuthInfos["proxy"] = &clientcmdapi.AuthInfo{}
	kc.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "proxy"}
	kc.CurrentContext = "proxy"
	path := filepath.Join(t.TempDir(), "proxy-kubeconfig-"+l.id)
	require.NoError(t, clientcmd.WriteToFile(*kc, path))
	return path
}

type countingBody struct {
	io.ReadCloser
	log  *replicaLog
	kind string
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.log.mu.Lock()
	if b.log.received == nil {
		b.log.received = map[string]int64{}
	}
	b.log.received[b.kind] += int64(n)
	b.log.mu.Unlock()
	return n, err
}

var deploymentsResource = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// requestInfos parses a request as the API server does.
var requestInfos = &apirequest.RequestInfoFactory{APIPrefixes: sets.NewString("api", "apis"), GrouplessAPIPrefixes: sets.NewString("api")}

// requestKind names what a request asks for, as "works watch" or
// "deployments/status update": its resource (and subresource) and the
// API server's verb of it; "discovery" for the rest.
func requestKind(r *http.Request) string {
	info, err := requestInfos.NewRequestInfo(r)
	switch {
	case err != nil || !info.IsResourceRequest:
		return "discovery"
	case info.Subresource != "":
		return info.Resource + "/" + info.Subresource + " " + info.Verb
	}
	return info.Resource + " " + info.Verb
}

func (l *replicaLog) all() []objectWrite {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]objectWrite(nil), l.writes...)
}

// receivedByKind is what the replica received, by requestKind, largest
// first, as "works watch 12.3 MiB, …"; kinds under 1% of it are summed as
// "other".
func (l *replicaLog) receivedByKind() string {
	l.mu.Lock()
	counts := maps.Clone(l.received)
	l.mu.Unlock()
	total := sumOf(counts)
	kinds := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return cmp.Compare(counts[b], counts[a]) })
	var parts []string
	var other int64
	for _, k := range kinds {
		if counts[k]*100 < total {
			other += counts[k]
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.1f MiB", k, float64(counts[k])/(1<<20)))
	}
	return strings.Join(append(parts, fmt.Sprintf("other %.1f MiB", float64(other)/(1<<20))), ", ")
}

func (l *replicaLog) bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return sumOf(l.received)
}

func sumOf(counts map[string]int64) int64 {
	var n int64
	for _, c := range counts {
		n += c
	}
	return n
}

// holderTimeline polls the shards' Leases and records who held each
// when.
type holderTimeline struct {
	mu      sync.Mutex
	changes [][]holderChange // by shard
}

type holderChange struct {
	at     time.Time
	holder string
}

func watchHolders(t *testing.T, kube kubernetes.Interface, lease string, n int) *holderTimeline {
	h := &holderTimeline{changes: make([][]holderChange, n)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			for k := range n {
				holder, acquired := leaseHolderSince(kube, fmt.Sprintf("%s-shard-%d", lease, k))
				now := time.Now()
				h.mu.Lock()
				c := h.changes[k]
				if len(c) == 0 || c[len(c)-1].holder != holder {
					// Since the Lease says (this machine's clock): its
					// acquireTime is when the holder took it, or when the
					// last released it. A poll sees the change late, and a
					// new holder may have written in between.
					at := now
					if !acquired.IsZero() && acquired.Before(now) {
						at = acquired
					}
					if len(c) > 0 && at.Before(c[len(c)-1].at) {
						at = c[len(c)-1].at
					}
					h.changes[k] = append(c, holderChange{at: at, holder: holder})
				}
				h.mu.Unlock()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return h
}

// heldAt says whether id held shard k at t, as the polls saw it: the
// last change seen before t names id.
func (h *holderTimeline) heldAt(k int, id string, t time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	holder := ""
	for _, c := range h.changes[k] {
		if c.at.After(t) {
			break
		}
		holder = c.holder
	}
	return holder == id
}

// lastChange is when the polls last saw a shard change holder.
func (h *holderTimeline) lastChange() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	var last time.Time
	for _, c := range h.changes {
		if len(c) > 0 && c[len(c)-1].at.After(last) {
			last = c[len(c)-1].at
		}
	}
	return last
}

func (h *holderTimeline) holders() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, len(h.changes))
	for k, c := range h.changes {
		if len(c) > 0 {
			out[k] = c[len(c)-1].holder
		}
	}
	return out
}

// shardFleet is the test's bindings: their uids and Works.
type shardFleet struct {
	n        int
	ns       string            // the bindings' namespace
	bindings map[string]string // binding name → uid
	works    map[string]string // "ns/work name" → binding name
}

func (f *shardFleet) shardOfBinding(name string) int { return shard.Of(f.bindings[name], f.n) }

// bindingOf is the binding a write is for ("" when none of the test's:
// the replicas reconcile the bindings other tests left in the API server
// too).
func (f *shardFleet) bindingOf(w objectWrite) string {
	if w.resource == "resourcebindings" {
		if _, ok := f.bindings[w.name]; !ok || w.ns != f.ns {
			return ""
		}
		return w.name
	}
	return f.works[w.ns+"/"+w.name]
}

// outside returns the writes of replica id, after since, for a binding
// of a shard id did not hold at that instant by the Leases.
func (f *shardFleet) outside(l *replicaLog, h *holderTimeline, since time.Time) []string {
	var out []string
	for _, w := range l.all() {
		b := f.bindingOf(w)
		if b == "" || w.at.Before(since) {
			continue
		}
		if k := f.shardOfBinding(b); !h.heldAt(k, l.id, w.at) {
			out = append(out, fmt.Sprintf("%s %s %s/%s (binding %s, shard %d) at %s", l.id, w.verb, w.resource, w.name, b, k, w.at.Format("15:04:05.000")))
		}
	}
	return out
}

// lastWrite is when the last Work of one of names was written through
// l after since, answered 2xx.
func (f *shardFleet) lastWrite(l *replicaLog, names []string, since time.Time) time.Time {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var last time.Time
	for _, w := range l.all() {
		if w.resource == "works" && w.code < 300 && w.at.After(since) && want[f.bindingOf(w)] {
			last = latest(last, w.at)
		}
	}
	return last
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

const (
	shardBindings = 300
	shardCount    = 6
)

// TestControllerShards runs three `luainterp controller --shards 6`
// processes on 300 bindings over two clusters, each through a proxy that
// records its writes, while the Leases of the shards are polled:
//
//   - every Work is created once, by one replica, and never updated;
//   - a replica killed (SIGKILL): its shards' bindings, changed right
//     after, have their Works rewritten by the others within the lease
//     duration + 5 s;
//   - a replica paused (SIGSTOP) past its leases and resumed writes
//     nothing for a shard it lost until it holds that shard's Lease again;
//   - a replica added while every binding keeps changing: shards move to
//     it, and no replica writes for a binding whose shard's Lease it does
//     not hold (the double reconciles, counted: 0) nor conflicts.
//
// The API server here has no ShardedListAndWatch gate: the replicas'
// own filter does the sharding (BenchmarkControllerShards runs both).
//
// The replicas run luainterp built without the race detector (binary,
// or $LUAINTERP_TEST_BIN), which would multiply the time a take-over
// takes by the time its reconciles take under it; and with
// --kube-api-qps 200, as a fleet of this size would be run: at the
// default 50 a replica taking 100 bindings over spends 4 s in the
// client's rate limiter (a Work update is a GET and a PUT).
func TestControllerShards(t *testing.T) {
	cfg := env.Config(t)
	ctx := context.Background()
	kube := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	const ns, lease = "shards", "luainterp-shards"
	clusters := []string{"sh-east", "sh-west"}
	createNamespaces(t, kube, "karmada-system", ns, "karmada-es-sh-east", "karmada-es-sh-west")
	for _, c := range clusters {
		testenv.CreateAll(t, cfg, controller.ClusterResource, []*unstructured.Unstructured{{Object: map[string]any{
			"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": map[string]any{"name": c},
			"spec": map[string]any{"syncMode": "Push", "apiEndpoint": "https://" + c + ".example.internal:6443"},
		}}})
	}
	var deployments, bindings []*unstructured.Unstructured
	for i := range shardBindings {
		name := fmt.Sprintf("app-%03d", i)
		deployments = append(deployments, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": name, "namespace": ns},
			"spec": map[string]any{"replicas": int64(2), "selector": map[string]any{"matchLabels": map[string]any{"app": name}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "registry.example.com/app:1"}}}}},
		}})
		bindings = append(bindings, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding", "metadata": map[string]any{"name": name + "-deployment", "namespace": ns},
			"spec": map[string]any{"resource": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "namespace": ns, "name": name},
				"replicas": int64(2), "clusters": shardTargets(1)},
		}})
	}
	testenv.CreateAll(t, cfg, deploymentsResource, deployments)
	testenv.CreateAll(t, cfg, controller.ResourceBindingResource, bindings)
	fleet := &shardFleet{n: shardCount, ns: ns, bindings: map[string]string{}, works: map[string]string{}}
	list, err := dyn.Resource(controller.ResourceBindingResource).Namespace(ns).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, b := range list.Items {
		fleet.bindings[b.GetName()] = string(b.GetUID())
	}
	holders := watchHolders(t, kube, lease, shardCount)

	bin := builtBinary(t)
	logs := map[string]*replicaLog{}
	procs := map[string]*process{}
	start := func(id string) {
		l := &replicaLog{id: id}
		logs[id] = l
		procs[id] = startBinary(t, bin, "controller", "--kubeconfig", l.proxy(t, cfg), "--metrics-address", "127.0.0.1:0",
			"--shards", strconv.Itoa(shardCount), "--leader-elect-identity", id, "--leader-elect-resource-name", lease,
			"--leader-elect-lease-duration", testLeaseDuration.String(), "--leader-elect-renew-deadline", testRenewDeadline.String(),
			"--leader-elect-retry-period", testRetryPeriod.String(), "--workers", "8", "--kube-api-qps", "200", "--kube-api-burst", "400")
	}
	// workReplicas reads the east replicas of every binding's Work: -1
	// for a binding without one.
	workReplicas := func() map[string]int64 {
		out := map[string]int64{}
		for _, c := range clusters {
			l, err := dyn.Resource(controller.WorkResource).Namespace("karmada-es-"+c).List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			for _, w := range l.Items {
				b := w.GetAnnotations()[api.ResourceBindingNameAnnotation]
				fleet.works[w.GetNamespace()+"/"+w.GetName()] = b
				if c != "sh-east" {
					continue
				}
				manifests, _, _ := unstructured.NestedSlice(w.Object, "spec", "workload", "manifests")
				if len(manifests) == 1 {
					n, _, _ := unstructured.NestedInt64(manifests[0].(map[string]any), "spec", "replicas")
					out[b] = n
				}
			}
		}
		return out
	}
	balanced := func(ids ...string) func() bool {
		return func() bool {
			count := map[string]int{}
			for _, h := range holders.holders() {
				count[h]++
			}
			for _, id := range ids {
				if c := count[id]; c < shardCount/len(ids) || c > (shardCount+len(ids)-1)/len(ids) {
					return false
				}
			}
			return true
		}
	}
	// writeLogs writes, when LUAINTERP_TEST_LOGS names a folder, every
	// replica's log and requests there; with quit, the goroutines of the
	// test and of the replicas too (SIGQUIT ends them).
	writeLogs := func(quit bool) {
		dir := os.Getenv("LUAINTERP_TEST_LOGS")
		if dir == "" {
			return
		}
		if quit {
			var g bytes.Buffer
			_ = pprof.Lookup("goroutine").WriteTo(&g, 2)
			_ = os.WriteFile(filepath.Join(dir, "shards-test.goroutines"), g.Bytes(), 0o644)
		}
		for id, p := range procs {
			if quit {
				_ = p.cmd.Process.Signal(syscall.SIGQUIT)
				time.Sleep(time.Second)
			}
			_ = os.WriteFile(filepath.Join(dir, "shards-"+id+".log"), []byte(p.stderr.String()), 0o644)
			l := logs[id]
			l.mu.Lock()
			_ = os.WriteFile(filepath.Join(dir, "shards-"+id+".access"), []byte(strings.Join(l.access, "\n")), 0o644)
			l.mu.Unlock()
		}
	}
	// dump is the replicas' last logs for a failure message, all of them
	// written out by writeLogs; lazy, as a failure message's argument is
	// evaluated before the wait it explains.
	dump := lazyString(func() string {
		var b strings.Builder
		for id, p := range procs {
			fmt.Fprintf(&b, "--- %s:\n%s\n", id, tail(p.stderr.String(), 6000))
		}
		writeLogs(true)
		return b.String()
	})

	// 1. Three replicas write every Work once.
	began := time.Now()
	for _, id := range []string{"r1", "r2", "r3"} {
		start(id) // together, as a Deployment's replicas start
	}
	t.Cleanup(func() { writeLogs(false) }) // before the replicas stop
	require.Eventually(t, func() bool {
		r := workReplicas()
		return len(r) == shardBindings && len(fleet.works) == shardBindings*len(clusters)
	}, 90*time.Second, 200*time.Millisecond, "the Works were not all written:\n%s", dump)
	require.Eventually(t, balanced("r1", "r2", "r3"), 30*time.Second, 100*time.Millisecond, "the shards are not shared: %v\n%s", holders.holders(), dump)
	time.Sleep(2 * time.Second) // whatever would be written twice is
	// A write is recorded with its answer: the API server may have taken
	// one whose answer a loaded replica has not read yet.
	require.Eventually(t, func() bool {
		for _, l := range logs {
			if l.inflight.Load() > 0 {
				return false
			}
		}
		return true
	}, 30*time.Second, 10*time.Millisecond, "writes still unanswered")
	creates := map[string][]string{} // the creates the API server answered 201
	cancelled := map[string]int{}    // those a hand-over cancelled, answered or not
	updates := 0
	for id, l := range logs {
		for _, w := range l.all() {
			if w.resource != "works" || fleet.bindingOf(w) == "" {
				continue
			}
			switch w.verb {
			case http.MethodPost:
				switch w.code {
				case http.StatusCreated:
					creates[w.ns+"/"+w.name] = append(creates[w.ns+"/"+w.name], id)
				case http.StatusConflict: // AlreadyExists: the controller reads the Work and finds it written
				default: // cancelled by a hand-over: written or not, sent again by the new holder
					cancelled[w.ns+"/"+w.name]++
				}
			default:
				updates++
			}
		}
	}
	for work := range fleet.works {
		// Written once: one create answered, or none and one cancelled
		// after the API server had taken it.
		if ids := creates[work]; len(ids) != 1 {
			assert.True(t, len(ids) == 0 && cancelled[work] > 0, "work %s created by %v, %d creates cancelled", work, ids, cancelled[work])
		}
	}
	assert.Len(t, fleet.works, shardBindings*len(clusters), "works written")
	assert.Zero(t, updates, "works updated or deleted")
	for id, l := range logs {
		assert.Empty(t, fleet.outside(l, holders, began), "%s wrote outside its shards", id)
	}
	t.Logf("3 replicas: %d works created once each in %s (%d creates cancelled by hand-overs); shards %v",
		len(fleet.works), time.Since(began).Round(time.Millisecond), len(cancelled), holders.holders())

	// patch sets the east replicas of the bindings to n, 16 at a time:
	// the take-over is timed from the kill, and a hundred patches one by
	// one from a loaded test would spend seconds of it.
	patch := func(names []string, n int) {
		t.Helper()
		p := fmt.Sprintf(`{"spec":{"clusters":%s}}`, mustJSON(t, shardTargets(n)))
		errs := make([]error, len(names))
		var wg sync.WaitGroup
		limit := make(chan struct{}, 16)
		for i, name := range names {
			limit <- struct{}{}
			wg.Go(func() {
				defer func() { <-limit }()
				_, errs[i] = dyn.Resource(controller.ResourceBindingResource).Namespace(ns).Patch(ctx, name, types.MergePatchType, []byte(p), metav1.PatchOptions{})
			})
		}
		wg.Wait()
		for i, err := range errs {
			require.NoError(t, err, "patch %s", names[i])
		}
	}
	bindingsOf := func(id string) []string {
		var out []string
		hs := holders.holders()
		for name := range fleet.bindings {
			if hs[fleet.shardOfBinding(name)] == id {
				out = append(out, name)
			}
		}
		return out
	}
	applied := func(names []string, n int64) func() bool {
		return func() bool {
			r := workReplicas()
			for _, name := range names {
				if r[name] != n {
					return false
				}
			}
			return true
		}
	}

	// 2. One replica killed: its bindings are taken over within the lease
	// duration + 5 s.
	victim := bindingsOf("r3")
	require.NotEmpty(t, victim)
	require.NoError(t, procs["r3"].cmd.Process.Kill())
	killed := time.Now()
	<-procs["r3"].done
	patch(victim, 2)
	// The writes are timed by the proxies; reading them back through the
	// API server (600 Works at a time, under the race detector) lags.
	require.Eventually(t, applied(victim, 2), 30*time.Second, 50*time.Millisecond,
		"the killed replica's bindings were not taken over:\n%s", dump)
	var last time.Time
	for _, id := range []string{"r1", "r2"} {
		last = latest(last, fleet.lastWrite(logs[id], victim, killed))
	}
	assert.LessOrEqual(t, last.Sub(killed), testLeaseDuration+5*time.Second,
		"the killed replica's bindings were reconciled by the others later than the lease duration + 5 s")
	t.Logf("replica killed: its shards taken %s after the kill, its %d bindings' Works written by the others %s after (lease %s)",
		holders.lastChange().Sub(killed).Round(time.Millisecond), len(victim), last.Sub(killed).Round(time.Millisecond), testLeaseDuration)
	require.Eventually(t, balanced("r1", "r2"), 30*time.Second, 100*time.Millisecond, "the shards are not shared: %v", holders.holders())

	// 3. One paused past its leases: resumed, it writes nothing for the
	// shards it lost.
	paused := bindingsOf("r2")
	require.NoError(t, procs["r2"].cmd.Process.Signal(syscall.SIGSTOP))
	stopped := time.Now()
	patch(paused, 3)
	require.Eventually(t, applied(paused, 3), 30*time.Second, 50*time.Millisecond, "r1 did not take over:\n%s", dump)
	tookOver := fleet.lastWrite(logs["r1"], paused, stopped).Sub(stopped)
	if wait := 2*testLeaseDuration - time.Since(stopped); wait > 0 {
		time.Sleep(wait)
	}
	resumed := time.Now()
	require.NoError(t, procs["r2"].cmd.Process.Signal(syscall.SIGCONT))
	for i := range 10 { // its watches hold changes; they keep coming
		patch(paused[:min(len(paused), 20)], 4+i)
		time.Sleep(100 * time.Millisecond)
	}
	require.Eventually(t, balanced("r1", "r2"), 30*time.Second, 100*time.Millisecond, "the shards are not shared again: %v\n%s", holders.holders(), dump)
	lost := fleet.outside(logs["r2"], holders, resumed)
	assert.Empty(t, lost, "writes of the paused replica for shards it did not hold")
	t.Logf("replica paused %s: its bindings' Works written by r1 %s after the pause; after it resumed, %d writes for shards it did not hold; it holds %d shards again",
		resumed.Sub(stopped).Round(time.Millisecond), tookOver.Round(time.Millisecond), len(lost), strings.Count(strings.Join(holders.holders(), " "), "r2"))

	// 4. A replica added while every binding keeps changing: the shards
	// move, and no binding is written by a replica not holding its shard.
	var names []string
	for name := range fleet.bindings {
		names = append(names, name)
	}
	joined := time.Now()
	start("r4")
	gen := 10
	for time.Since(joined) < 15*time.Second && !(balanced("r1", "r2", "r4")() && time.Since(joined) > 5*time.Second) {
		patch(names[gen%10*30:gen%10*30+30], gen)
		gen++
	}
	require.Eventually(t, balanced("r1", "r2", "r4"), 30*time.Second, 100*time.Millisecond, "the shards did not move: %v\n%s", holders.holders(), dump)
	final := gen
	patch(names, final)
	require.Eventually(t, applied(names, int64(final)), 30*time.Second, 100*time.Millisecond, "the last change was not applied:\n%s", dump)
	var double []string
	for _, id := range []string{"r1", "r2", "r4"} {
		double = append(double, fleet.outside(logs[id], holders, joined)...)
	}
	assert.Empty(t, double, "double reconciles")
	conflicts := 0.0
	for _, id := range []string{"r1", "r2", "r4"} {
		conflicts += metricValue(httpGet(t, procs[id].url(t, "/metrics")), "luainterp_controller_write_conflicts_total")
	}
	assert.Zero(t, conflicts, "conflicting Work updates")
	assert.Contains(t, httpGet(t, procs["r4"].url(t, "/metrics")), `luainterp_controller_shards_held 2`)
	t.Logf("replica added: shards %v; %d changes written in %s, %d writes outside the writer's shards, %.0f conflicts",
		holders.holders(), gen-10, time.Since(joined).Round(time.Millisecond), len(double), conflicts)
}

// lazyString is a failure message's argument computed only when the
// message is written.
type lazyString func() string

func (f lazyString) String() string { return f() }

// shardTargets are a binding's spec.clusters: n replicas east, 1 west.
func shardTargets(n int) []any {
	return []any{map[string]any{"name": "sh-east", "replicas": int64(n)}, map[string]any{"name": "sh-west", "replicas": int64(1)}}
}

func mustJSON(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
