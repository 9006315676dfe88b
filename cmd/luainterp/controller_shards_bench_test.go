package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/shard"
)

// shardBench is what BenchmarkControllerShards runs: its sizes and the
// numbers of replicas, each with --shards shards.
const (
	shardBenchSizeVariable = "SHARDS_BENCH_SIZE"        // "bindings×clusters" as 2000x10
	shardBenchProfiles     = "SHARDS_BENCH_HEAPPROFILE" // a folder for each replica's heap profile
	shardBenchShards       = 8
	shardBenchNamespace    = "shards-bench"
)

var shardBenchReplicas = []int{1, 2, 4}

// BenchmarkControllerShards measures what sharding saves each replica
// (issue 31): B Deployment bindings over C clusters (2,000 × 10, or
// $SHARDS_BENCH_SIZE as 500x4), each binding targeting every cluster,
// run by 1, 2 and 4 `luainterp controller --shards 8` processes, each
// through a proxy (replicaLog) that counts the bytes the API server sends
// it. Every replica count runs on an API server of its own, started for
// it, with the bindings and templates and no Work. The shards' Leases
// are created beforehand, each held by the replica that is to hold it (as
// a settled fleet restarting finds them), so that every replica lists its
// share from the start and no hand-over (a relist) blurs the figures.
// Once every Work is written and every replica is quiet (its shards
// held, both queues empty for two seconds), it reports per replica:
//
//   - heap-MiB/replica: the live heap, go_gc_heap_live_bytes after two
//     collections (--profiling's /debug/pprof/heap?gc=1), the most of
//     the replicas; heap-ratio, that over the one replica's;
//   - recv-MiB/replica: the bytes the API server sent the replica from
//     its start, the most of the replicas;
//   - write-s: from the first replica's start to the last Work created.
//
// Twice: gate=off, kube-apiserver as it comes, which ignores the
// shardSelector (every replica receives every binding and drops the
// others), and gate=on, with --feature-gates=ShardedListAndWatch=true;
// there it first checks that a sharded list of ResourceBindings is
// filtered, and fails otherwise. With $SHARDS_BENCH_HEAPPROFILE=folder,
// each replica's heap profile is written there. make bench-shards;
// -benchtime 1x.
func BenchmarkControllerShards(b *testing.B) {
	bindings, clusters := shardBenchSize(b)
	for _, gate := range []struct{ name, gates string }{{"gate=off", ""}, {"gate=on", "ShardedListAndWatch=true"}} {
		b.Run(gate.name, func(b *testing.B) {
			var results []shardBenchResult
			for _, n := range shardBenchReplicas {
				b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
					for range b.N {
						e := testenv.Start(testenv.WithFeatureGates(gate.gates))
						b.Cleanup(func() { require.NoError(b, e.Stop()) })
						f := newShardBenchFleet(b, e.Config(b), bindings, clusters)
						f.checkShardSelector(b, gate.gates != "")
						r := f.run(b, n, gate.name)
						results = append(results, r)
						b.ReportMetric(mib(r.maxHeap()), "heap-MiB/replica")
						if results[0].replicas == 1 {
							b.ReportMetric(float64(r.maxHeap())/float64(results[0].maxHeap()), "heap-ratio")
						}
						b.ReportMetric(mib(uint64(slices.Max(r.received))), "recv-MiB/replica")
						b.ReportMetric(r.write.Seconds(), "write-s")
						b.Logf("%s, %d bindings × %d clusters, --shards %d, so far:\n%s", gate.name, bindings, clusters, shardBenchShards, shardBenchTable(results))
					}
				})
			}
		})
	}
}

// shardBenchSize reads $SHARDS_BENCH_SIZE: 2,000 bindings × 10 clusters
// when unset.
func shardBenchSize(b *testing.B) (bindings, clusters int) {
	size := os.Getenv(shardBenchSizeVariable)
	if size == "" {
		return 2000, 10
	}
	_, err := fmt.Sscanf(size, "%dx%d", &bindings, &clusters)
	require.NoError(b, err, "%s=%q: want bindings×clusters, as 500x4", shardBenchSizeVariable, size)
	return bindings, clusters
}

// shardBenchFleet is the benchmark's API server and objects.
type shardBenchFleet struct {
	cfg      *rest.Config
	kube     kubernetes.Interface
	dyn      dynamic.Interface
	clusters []string
	uids     []string // of the bindings
}

func newShardBenchFleet(b *testing.B, cfg *rest.Config, bindings, clusters int) *shardBenchFleet {
	f := &shardBenchFleet{cfg: cfg, kube: kubernetes.NewForConfigOrDie(cfg), dyn: dynamic.NewForConfigOrDie(cfg)}
	createNamespaces(b, f.kube, "karmada-system", shardBenchNamespace)
	var targets []any
	for i := range clusters {
		name := fmt.Sprintf("bench-%d", i)
		f.clusters = append(f.clusters, name)
		createNamespaces(b, f.kube, "karmada-es-"+name)
		testenv.CreateAll(b, cfg, controller.ClusterResource, []*unstructured.Unstructured{{Object: map[string]any{
			"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": map[string]any{"name": name},
			"spec": map[string]any{"syncMode": "Push", "apiEndpoint": "https://" + name + ".example.internal:6443"},
		}}})
		targets = append(targets, map[string]any{"name": name, "replicas": int64(i + 1)})
	}
	var deployments, rbs []*unstructured.Unstructured
	for i := range bindings {
		name := fmt.Sprintf("app-%04d", i)
		labels := map[string]any{"app": name}
		deployments = append(deployments, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": name, "namespace": shardBenchNamespace},
			"spec": map[string]any{"replicas": int64(len(targets)), "selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{"metadata": map[string]any{"labels": labels}, "spec": map[string]any{"containers": []any{
					map[string]any{"name": "app", "image": "registry.example.com/app:1",
						"resources": map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "128Mi"}}},
				}}}},
		}})
		rbs = append(rbs, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
			"metadata": map[string]any{"name": name + "-deployment", "namespace": shardBenchNamespace},
			"spec": map[string]any{"resource": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "namespace": shardBenchNamespace, "name": name},
				"replicas": int64(len(targets)), "clusters": targets},
		}})
	}
	testenv.CreateAll(b, cfg, deploymentsResource, deployments)
	testenv.CreateAll(b, cfg, controller.ResourceBindingResource, rbs)
	list, err := f.dyn.Resource(controller.ResourceBindingResource).Namespace(shardBenchNamespace).List(context.Background(), metav1.ListOptions{})
	require.NoError(b, err)
	for _, rb := range list.Items {
		f.uids = append(f.uids, string(rb.GetUID()))
	}
	require.Len(b, f.uids, bindings)
	return f
}

// checkShardSelector lists the bindings of shard 0 of 2 with its
// shardSelector: an API server with the gate sends those and no others;
// one without it ignores the selector and sends all.
func (f *shardBenchFleet) checkShardSelector(b *testing.B, gated bool) {
	set := shard.NewSet(2, 0)
	list, err := f.dyn.Resource(controller.ResourceBindingResource).Namespace(shardBenchNamespace).
		List(context.Background(), metav1.ListOptions{ShardSelector: set.Selector()})
	require.NoError(b, err)
	want, stray := 0, 0
	for _, uid := range f.uids {
		if set.Owns(uid) {
			want++
		}
	}
	for _, rb := range list.Items {
		if !set.Owns(string(rb.GetUID())) {
			stray++
		}
	}
	if gated {
		require.True(b, len(list.Items) == want && stray == 0,
			"ShardedListAndWatch is on, yet the list with shardSelector %s sent %d bindings, %d outside it (want %d of %d): the API server does not shard",
			set.Selector(), len(list.Items), stray, want, len(f.uids))
	} else {
		require.Len(b, list.Items, len(f.uids), "without the gate the API server should ignore shardSelector")
	}
	b.Logf("a list with shardSelector %s: %d of %d bindings", set.Selector(), len(list.Items), len(f.uids))
}

// shardBenchResult is one replica count's measure.
type shardBenchResult struct {
	replicas  int
	heap      []uint64 // live bytes, by replica
	received  []int64  // bytes, by replica
	write     time.Duration
	handovers float64 // shards given to another replica
}

func (r shardBenchResult) maxHeap() uint64 { return slices.Max(r.heap) }

// run runs n replicas from no Works until all are written and every
// replica is quiet, measures them and stops them.
func (f *shardBenchFleet) run(b *testing.B, n int, gate string) shardBenchResult {
	const lease = "luainterp-bench"
	f.holdLeases(b, lease, n)
	works := float64(len(f.uids) * len(f.clusters))
	type replica struct {
		log  *replicaLog
		proc *process
		base string // of its metrics server
	}
	replicas := make([]replica, n)
	bin := builtBinary(b) // what operators run, without the test binary's own packages
	start := time.Now()
	for i := range replicas {
		r := &replicas[i]
		r.log = &replicaLog{id: fmt.Sprintf("r%d", i+1)}
		r.proc = startBinary(b, bin, "controller", "--kubeconfig", r.log.proxy(b, f.cfg), "--metrics-address", "127.0.0.1:0", "--profiling",
			"--shards", strconv.Itoa(shardBenchShards), "--leader-elect-identity", r.log.id, "--leader-elect-resource-name", lease,
			"--workers", "16", "--resync", "0", "--kube-api-qps", "2000", "--kube-api-burst", "4000")
		r.base = r.proc.url(b, "")
	}
	metrics := func() []string {
		out := make([]string, n)
		for i, r := range replicas {
			out[i] = metricsOf(r.base)
		}
		return out
	}
	sum := func(texts []string, name string) float64 {
		total := 0.0
		for _, t := range texts {
			total += metricSum(t, name)
		}
		return total
	}
	dump := func() string {
		var s strings.Builder
		for _, r := range replicas {
			t := metricsOf(r.base)
			fmt.Fprintf(&s, "--- %s: shards held %g, works created %g, status passes %g, queues %g and %g:\n%s\n", r.log.id,
				metricSum(t, "luainterp_controller_shards_held"), metricSum(t, `luainterp_controller_works_written_total{operation="create"}`),
				metricSum(t, "luainterp_controller_status_passes_total"), metricSum(t, "luainterp_controller_queue_depth"),
				metricSum(t, "luainterp_controller_status_queue_depth"), tail(r.proc.stderr.String(), 3000))
		}
		return s.String()
	}
	require.Eventually(b, func() bool {
		return sum(metrics(), `luainterp_controller_works_written_total{operation="create"}`) >= works
	}, time.Hour, 200*time.Millisecond, "the Works were not all written:\n%s", lazyString(dump))
	write := time.Since(start)
	var since time.Time
	require.Eventually(b, func() bool {
		texts := metrics()
		quiet := sum(texts, "luainterp_controller_status_passes_total") >= float64(len(f.uids))
		for _, t := range texts {
			quiet = quiet && metricSum(t, "luainterp_controller_shards_held") == shardBenchShards/float64(n) &&
				metricSum(t, "luainterp_controller_queue_depth") == 0 && metricSum(t, "luainterp_controller_status_queue_depth") == 0
		}
		switch {
		case !quiet:
			since = time.Time{}
		case since.IsZero():
			since = time.Now()
		}
		return quiet && time.Since(since) >= 2*time.Second
	}, 5*time.Minute, 200*time.Millisecond, "the replicas never settled:\n%s", lazyString(dump))
	r := shardBenchResult{replicas: n, write: write, handovers: sum(metrics(), `luainterp_controller_shard_handovers_total{direction="given"}`)}
	for _, rep := range replicas {
		r.heap = append(r.heap, liveHeapOf(b, rep.base, heapProfilePath(gate, n, rep.log.id)))
		r.received = append(r.received, rep.log.bytes())
		b.Logf("%d replicas: %s received %s", n, rep.log.id, rep.log.receivedByKind())
	}
	return r
}

// holdLeases creates the Leases of the n replicas' shards, shard k held
// by replica k×n/shards + 1 (r1, r2, …) and just renewed: each replica
// renews its own and waits a lease duration before taking another's.
func (f *shardBenchFleet) holdLeases(b *testing.B, lease string, n int) {
	now := metav1.NewMicroTime(time.Now())
	for k := range shardBenchShards {
		_, err := f.kube.CoordinationV1().Leases("karmada-system").Create(context.Background(), &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-shard-%d", lease, k)},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To(fmt.Sprintf("r%d", k*n/shardBenchShards+1)),
				LeaseDurationSeconds: ptr.To[int32](15), AcquireTime: &now, RenewTime: &now},
		}, metav1.CreateOptions{})
		require.NoError(b, err)
	}
}

// liveHeapOf collects the garbage of the process serving base twice
// (through its heap profile, written to profile unless that is empty)
// and returns the heap the collection kept, go_gc_heap_live_bytes.
func liveHeapOf(b *testing.B, base, profile string) uint64 {
	var data []byte
	for range 2 {
		resp, err := http.Get(base + profilingPath + "heap?gc=1")
		require.NoError(b, err)
		data, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(b, err)
		require.Equal(b, http.StatusOK, resp.StatusCode, "%s", data)
	}
	if profile != "" {
		require.NoError(b, os.WriteFile(profile, data, 0o644))
	}
	live := metricValue(metricsOf(base), "go_gc_heap_live_bytes")
	require.Positive(b, live, "no go_gc_heap_live_bytes")
	return uint64(live)
}

// heapProfilePath is where a replica's heap profile goes: none unless
// $SHARDS_BENCH_HEAPPROFILE names a folder.
func heapProfilePath(gate string, n int, id string) string {
	dir := os.Getenv(shardBenchProfiles)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("%s-n%d-%s.pprof", strings.ReplaceAll(gate, "=", "-"), n, id))
}

// metricSum adds up the samples of metrics text named name, whatever
// their labels, or the one sample name when it has labels.
func metricSum(metrics, name string) float64 {
	total := 0.0
	for line := range strings.Lines(metrics) {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
			continue
		}
		if i := strings.LastIndexByte(rest, ' '); i >= 0 {
			if v, err := strconv.ParseFloat(strings.TrimSpace(rest[i:]), 64); err == nil {
				total += v
			}
		}
	}
	return total
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// shardBenchTable writes the results as a Markdown table.
func shardBenchTable(results []shardBenchResult) string {
	var s strings.Builder
	s.WriteString("| replicas | heap per replica (MiB) | most / 1 replica | received per replica (MiB) | all Works written | hand-overs |\n|---|---|---|---|---|---|\n")
	for _, r := range results {
		heaps, recv := make([]string, len(r.heap)), make([]string, len(r.received))
		for i := range r.heap {
			heaps[i] = fmt.Sprintf("%.1f", mib(r.heap[i]))
			recv[i] = fmt.Sprintf("%.1f", mib(uint64(r.received[i])))
		}
		ratio := "-"
		if results[0].replicas == 1 {
			ratio = fmt.Sprintf("%.2f×", float64(r.maxHeap())/float64(results[0].maxHeap()))
		}
		fmt.Fprintf(&s, "| %d | %s | %s | %s | %s | %.0f |\n", r.replicas, strings.Join(heaps, ", "), ratio, strings.Join(recv, ", "),
			r.write.Round(100*time.Millisecond), r.handovers)
	}
	return s.String()
}
