package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/kube/controller"
)

// mainArgsVariable holds, as JSON, the arguments of a luainterp process
// that a test runs from its own binary (TestMain runs them instead of the
// tests).
const mainArgsVariable = "LUAINTERP_TEST_MAIN_ARGS"

func runProcess(args string) int {
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		fmt.Fprintln(os.Stderr, "error:", mainArgsVariable, err)
		return 2
	}
	return runMain(argv, os.Stdin, os.Stdout, os.Stderr)
}

// process is luainterp running in a process of its own, which a test can kill.
type process struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan struct{} // closed when it has exited
}

// binVariable names a luainterp binary that startProcess runs instead of
// the test binary: a benchmark measuring another build (make
// bench-admission BEFORE=...).
const binVariable = "LUAINTERP_TEST_BIN"

// builtBinary is the luainterp of $LUAINTERP_TEST_BIN, or else luainterp
// built for the test run (binary): a real binary either way, as operators
// run it, not the test binary.
func builtBinary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv(binVariable); bin != "" {
		return bin
	}
	return binary(t)
}

// startProcess runs luainterp args in a process of its own until the test
// ends (or it is killed).
func startProcess(t testing.TB, args ...string) *process {
	t.Helper()
	return startBinary(t, os.Getenv(binVariable), args...)
}

// startBinary is startProcess running the luainterp binary bin, or the
// test binary when bin is "".
func startBinary(t testing.TB, bin string, args ...string) *process {
	t.Helper()
	argv, err := json.Marshal(args)
	require.NoError(t, err)
	p := &process{cmd: exec.Command(os.Args[0]), stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), mainArgsVariable+"="+string(argv))
	if bin != "" {
		p.cmd = exec.Command(bin, args...)
	}
	p.cmd.Stderr = p.stderr
	require.NoError(t, p.cmd.Start())
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(30 * time.Second):
			_ = p.cmd.Process.Kill()
			t.Errorf("luainterp %s did not stop on SIGTERM within 30s:\n%s", args[0], p.stderr)
		}
	})
	return p
}

// url is the URL of path on the process's metrics server.
func (p *process) url(t testing.TB, path string) string {
	t.Helper()
	var addr string
	require.Eventually(t, func() bool {
		if m := metricsAddress.FindStringSubmatch(p.stderr.String()); m != nil {
			addr = m[1]
			return true
		}
		return false
	}, 60*time.Second, 10*time.Millisecond, "no metrics server:\n%s", p.stderr)
	return "http://" + addr + path
}

// kubeConfigFile writes a kubeconfig file for cfg (a client certificate's).
func kubeConfigFile(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["test"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "test"}
	kc.CurrentContext = "test"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*kc, path))
	return path
}

// applyFile creates every object of file through dyn, skipping those that exist.
func applyFile(t *testing.T, dyn dynamic.Interface, gvr func(schema.GroupVersionKind) schema.GroupVersionResource, file string) {
	t.Helper()
	objs, err := (&manifest.Reader{}).Objects(file)
	require.NoError(t, err)
	for _, obj := range objs {
		u := &unstructured.Unstructured{Object: obj.Object}
		var api dynamic.ResourceInterface = dyn.Resource(gvr(u.GroupVersionKind()))
		if u.GetNamespace() != "" {
			api = dyn.Resource(gvr(u.GroupVersionKind())).Namespace(u.GetNamespace())
		}
		if _, err := api.Create(context.Background(), u, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
			require.NoError(t, err, "%s: %s %s", file, u.GetKind(), u.GetName())
		}
	}
}

// The terms of the election of the tests' controller processes: short, so
// that a takeover takes seconds.
const (
	testLeaseDuration = 3 * time.Second
	testRenewDeadline = 2 * time.Second
	testRetryPeriod   = 500 * time.Millisecond
)

// startCandidate runs `luainterp controller --leader-elect` as identity id
// for the Lease karmada-system/lease, with the API server of kubeconfig.
func startCandidate(t *testing.T, kubeconfig, lease, id string) *process {
	t.Helper()
	return startProcess(t, "controller", "--kubeconfig", kubeconfig, "--metrics-address", "127.0.0.1:0",
		"--leader-elect", "--leader-elect-identity", id, "--leader-elect-resource-name", lease,
		"--leader-elect-lease-duration", testLeaseDuration.String(), "--leader-elect-renew-deadline", testRenewDeadline.String(),
		"--leader-elect-retry-period", testRetryPeriod.String())
}

// leaseHolder is the holder of the Lease karmada-system/lease, "" when
// none or when it cannot be read.
func leaseHolder(kube kubernetes.Interface, lease string) string {
	holder, _ := leaseHolderSince(kube, lease)
	return holder
}

// leaseHolderSince is the holder of a Lease of karmada-system ("" when
// none) and its acquireTime.
func leaseHolderSince(kube kubernetes.Interface, lease string) (string, time.Time) {
	l, err := kube.CoordinationV1().Leases("karmada-system").Get(context.Background(), lease, metav1.GetOptions{})
	if err != nil {
		return "", time.Time{}
	}
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	var acquired time.Time
	if l.Spec.AcquireTime != nil {
		acquired = l.Spec.AcquireTime.Time
	}
	return holder, acquired
}

// createNamespaces creates the namespaces that do not exist yet.
func createNamespaces(t testing.TB, kube kubernetes.Interface, names ...string) {
	t.Helper()
	for _, ns := range names {
		_, err := kube.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			require.NoError(t, err)
		}
	}
}

// haObjects are the template, the binding and the Clusters of the test.
const haObjects = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ha-east}
spec: {syncMode: Push, apiEndpoint: "https://ha-east.example.internal:6443"}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ha-west}
spec: {syncMode: Push, apiEndpoint: "https://ha-west.example.internal:6443"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ha, labels: {app: web}}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: registry.example.com/web:1.0}]}
---
apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: web-deployment, namespace: ha}
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: ha, name: web}
  replicas: 4
  placement:
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted}
  clusters:
  - {name: ha-east, replicas: 2}
  - {name: ha-west, replicas: 2}
`

// TestControllerLeaderTakeover runs two `luainterp controller` processes
// with leader election, as the service account of
// deploy/controller-rbac.yaml: one leads and writes the Works; it is
// killed (SIGKILL: no release); the standby takes over within the lease
// duration and applies the next change of the binding to the Works. The
// times are logged (go test -v -run TestControllerLeaderTakeover ./cmd/luainterp).
func TestControllerLeaderTakeover(t *testing.T) {
	cfg := env.Config(t)
	ctx := context.Background()
	kube := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	createNamespaces(t, kube, "karmada-system", "ha", "karmada-es-ha-east", "karmada-es-ha-west")
	mapper := func(gvk schema.GroupVersionKind) schema.GroupVersionResource {
		resources := map[string]schema.GroupVersionResource{
			"Cluster": controller.ClusterResource, "ResourceBinding": controller.ResourceBindingResource,
			"Deployment":         {Group: "apps", Version: "v1", Resource: "deployments"},
			"ServiceAccount":     {Version: "v1", Resource: "serviceaccounts"},
			"ClusterRole":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
			"ClusterRoleBinding": {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
			"Role":               {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
			"RoleBinding":        {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
		}
		gvr, ok := resources[gvk.Kind]
		require.True(t, ok, "no resource for %s", gvk)
		return gvr
	}
	applyFile(t, dyn, mapper, "../../deploy/controller-rbac.yaml")
	objects := filepath.Join(t.TempDir(), "objects.yaml")
	require.NoError(t, os.WriteFile(objects, []byte(haObjects), 0o644))
	applyFile(t, dyn, mapper, objects)

	kubeconfig := kubeConfigFile(t, env.User(t, "system:serviceaccount:karmada-system:luainterp-controller", "system:serviceaccounts"))
	const lease = "luainterp-controller" // the Lease the RBAC names
	candidate := func(id string) *process { return startCandidate(t, kubeconfig, lease, id) }
	holder := func() string { return leaseHolder(kube, lease) }
	replicas := func(cluster string) int64 {
		w, err := dyn.Resource(controller.WorkResource).Namespace("karmada-es-"+cluster).List(ctx, metav1.ListOptions{})
		if err != nil || len(w.Items) != 1 {
			return -1
		}
		manifests, _, _ := unstructured.NestedSlice(w.Items[0].Object, "spec", "workload", "manifests")
		if len(manifests) != 1 {
			return -1
		}
		n, _, _ := unstructured.NestedInt64(manifests[0].(map[string]any), "spec", "replicas")
		return n
	}

	first := candidate("first")
	require.Eventually(t, func() bool { return holder() == "first" }, 60*time.Second, 50*time.Millisecond, "the first never led:\n%s", first.stderr)
	require.Eventually(t, func() bool { return replicas("ha-east") == 2 && replicas("ha-west") == 2 }, 30*time.Second, 50*time.Millisecond,
		"the leader never wrote the Works:\n%s", first.stderr)
	second := candidate("second")
	require.Eventually(t, func() bool { return strings.Contains(second.stderr.String(), "leader observed") }, 60*time.Second, 50*time.Millisecond,
		"the standby never read the Lease:\n%s", second.stderr)
	assert.Equal(t, "first", holder())
	const isLeader = `luainterp_leader_is_leader{lease="karmada-system/luainterp-controller"} `
	assert.Contains(t, httpGet(t, first.url(t, "/metrics")), isLeader+"1")
	assert.Contains(t, httpGet(t, second.url(t, "/metrics")), isLeader+"0")
	assert.Equal(t, "ok\n", httpGet(t, second.url(t, "/readyz")), "a standby is ready")
	assert.Equal(t, "ok\n", httpGet(t, second.url(t, "/healthz")))

	killed := time.Now()
	require.NoError(t, first.cmd.Process.Kill())
	<-first.done
	patch := []byte(`{"spec":{"clusters":[{"name":"ha-east","replicas":3},{"name":"ha-west","replicas":1}]}}`)
	_, err := dyn.Resource(controller.ResourceBindingResource).Namespace("ha").Patch(ctx, "web-deployment", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), replicas("ha-east"), "the Works changed with no leader")

	bound := testLeaseDuration + 3*time.Second // expiry, one retry late, and the standby's reconcile
	require.Eventually(t, func() bool { return holder() == "second" }, bound, 20*time.Millisecond, "the standby did not take over:\n%s", second.stderr)
	took := time.Since(killed)
	require.Eventually(t, func() bool { return replicas("ha-east") == 3 && replicas("ha-west") == 1 }, bound, 20*time.Millisecond,
		"the standby did not apply the change:\n%s", second.stderr)
	applied := time.Since(killed)
	t.Logf("leader killed: the standby holds the Lease after %s and the Works have the new replicas after %s (lease duration %s)",
		took.Round(time.Millisecond), applied.Round(time.Millisecond), testLeaseDuration)

	// A leader stopped by SIGTERM releases the Lease once its reconciles
	// are done: the next standby takes it at its next try.
	third := candidate("third")
	require.Eventually(t, func() bool { return strings.Contains(third.stderr.String(), "leader observed") }, 60*time.Second, 50*time.Millisecond,
		"the third never read the Lease:\n%s", third.stderr)
	stopped := time.Now()
	require.NoError(t, second.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-second.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the leader did not stop on SIGTERM:\n%s", second.stderr)
	}
	assert.Zero(t, second.cmd.ProcessState.ExitCode(), second.stderr.String())
	require.Eventually(t, func() bool { return holder() == "third" }, bound, 20*time.Millisecond, "the third did not take over:\n%s", third.stderr)
	took = time.Since(stopped)
	patch = []byte(`{"spec":{"clusters":[{"name":"ha-east","replicas":1},{"name":"ha-west","replicas":3}]}}`)
	_, err = dyn.Resource(controller.ResourceBindingResource).Namespace("ha").Patch(ctx, "web-deployment", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return replicas("ha-east") == 1 && replicas("ha-west") == 3 }, bound, 20*time.Millisecond,
		"the new leader did not apply the change:\n%s", third.stderr)
	t.Logf("leader stopped by SIGTERM: the next holds the Lease %s after the signal", took.Round(time.Millisecond))
}

func TestLeaderElectFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"off with --kubeconfig", []string{"--kubeconfig", "k"}, false},
		{"on with --in-cluster", []string{"--in-cluster"}, true},
		{"off when asked, in cluster", []string{"--in-cluster", "--leader-elect=false"}, false},
		{"on when asked, with --kubeconfig", []string{"--kubeconfig", "k", "--leader-elect"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &controllerOptions{}
			f := pflag.NewFlagSet("controller", pflag.ContinueOnError)
			o.kube.addFlags(f)
			o.leader.addFlags(f)
			require.NoError(t, f.Parse(tc.args))
			o.leader.resolve(f, &o.kube)
			assert.Equal(t, tc.want, o.leader.elect)
		})
	}
	t.Run("terms that make no election are refused before anything starts", func(t *testing.T) {
		r := run(t, "", "controller", "--kubeconfig", env.KubeConfig(t), "--leader-elect", "--leader-elect-renew-deadline", "20s")
		require.Error(t, r.err)
		assert.Equal(t, "--leader-elect: invalid leader election: renew deadline 20s is not shorter than the lease duration 15s", r.err.Error())
		assert.NotContains(t, r.stderr, "loaded", "it read the API server first")
	})
}
