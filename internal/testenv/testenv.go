package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/deploy/crds"
)

// Version is the Kubernetes version hack/envtest-binaries.sh builds.
const Version = "1.37.2"

// RequireVariable names the environment variable that, when set, turns a
// missing API server into a failure instead of a skip.
const RequireVariable = "LUAINTERP_REQUIRE_APISERVER"

// ErrNoBinaries is the error of an Env whose binaries were not found.
var ErrNoBinaries = errors.New("no kube-apiserver and etcd binaries (run hack/envtest-binaries.sh)")

// Env is a kube-apiserver and etcd started for a test package, or the
// reason there is none.
type Env struct {
	env     *envtest.Environment
	cfg     *rest.Config
	err     error // why there is no API server; ErrNoBinaries when skipping
	log     *syncBuffer
	certDir string // kube-apiserver's
}

// Main starts an Env, stores it in *env, runs the package's tests and
// stops the Env; it returns the exit code for os.Exit.
func Main(m *testing.M, env **Env) int {
	*env = Start()
	code := m.Run()
	if err := (*env).Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "testenv: stopping the API server:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Start starts etcd and kube-apiserver and installs the CRDs of deploy/crds.
// It never returns nil: an Env that could not start says why through Config.
func Start(opts ...Option) *Env {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	dir, err := AssetsDir()
	if err != nil {
		return &Env{err: err}
	}
	defs, err := crds.Definitions()
	if err != nil {
		return &Env{err: fmt.Errorf("reading the CRDs: %w", err)}
	}
	certDir, err := os.MkdirTemp("", "luainterp-apiserver-")
	if err != nil {
		return &Env{err: err}
	}
	admission, err := admissionConfig(certDir)
	if err != nil {
		_ = os.RemoveAll(certDir)
		return &Env{err: fmt.Errorf("writing the admission configuration: %w", err)}
	}
	ctrllog.SetLogger(logr.Discard())
	e := &Env{log: &syncBuffer{}, certDir: certDir}
	e.env = &envtest.Environment{
		BinaryAssetsDirectory:    dir,
		CRDs:                     defs,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	api := e.env.ControlPlane.GetAPIServer()
	api.Out, api.Err = e.log, e.log
	api.CertDir = certDir // ours, removed by Stop
	// On loopback, 1.37 needs the endpoint reconciler off: it refuses to
	// publish 127.0.0.1 as the kubernetes Service's endpoint.
	api.Configure().
		Set("advertise-address", "127.0.0.1").
		Set("endpoint-reconciler-type", "none").
		Set("admission-control-config-file", admission)
	if o.featureGates != "" {
		api.Configure().Set("feature-gates", o.featureGates)
	}
	start := time.Now()
	e.cfg, err = e.env.Start()
	if err != nil {
		e.err = fmt.Errorf("starting kube-apiserver and etcd from %s: %w\n%s", dir, err, e.log.tail(4096))
		_ = e.env.Stop()
		_ = os.RemoveAll(certDir)
		return e
	}
	e.cfg.QPS, e.cfg.Burst = 200, 400 // tests make bursts of calls; the API server is ours alone
	fmt.Fprintf(os.Stderr, "testenv: kube-apiserver %s ready at %s in %s\n", Version, e.cfg.Host, time.Since(start).Round(time.Millisecond))
	return e
}

// AssetsDir returns the folder holding kube-apiserver and etcd:
// $KUBEBUILDER_ASSETS, else the one hack/envtest-binaries.sh builds into.
// It returns ErrNoBinaries, or an error naming RequireVariable when that
// is set, if either binary is missing.
func AssetsDir() (string, error) {
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		dir = os.Getenv("LUAINTERP_ENVTEST_DIR")
	}
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrNoBinaries, err)
		}
		dir = filepath.Join(home, ".cache", "luainterp", "envtest", Version)
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			err = fmt.Errorf("%w: %s", ErrNoBinaries, filepath.Join(dir, name))
			if os.Getenv(RequireVariable) != "" {
				return "", fmt.Errorf("%s is set, so the API server is required: %w", RequireVariable, err)
			}
			return "", err
		}
	}
	return dir, nil
}

// Config returns the configuration of a client with every permission
// (system:masters). Without an API server it skips the test when the
// binaries are missing and RequireVariable is unset, and fails it otherwise.
func (e *Env) Config(t testing.TB) *rest.Config {
	t.Helper()
	switch {
	case errors.Is(e.err, ErrNoBinaries) && os.Getenv(RequireVariable) == "":
		t.Skipf("no API server: %v", e.err)
	case e.err != nil:
		t.Fatalf("no API server: %v", e.err)
	}
	return rest.CopyConfig(e.cfg)
}

// KubeConfig writes a kubeconfig file for the client of Config in a
// temporary folder of the test and returns its path.
func (e *Env) KubeConfig(t testing.TB) string {
	t.Helper()
	e.Config(t)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, e.env.KubeConfig, 0o600); err != nil {
		t.Fatalf("writing the kubeconfig: %v", err)
	}
	return path
}

// User returns the configuration of a client authenticated as name, in
// the given groups, with no permission but what RBAC grants them.
func (e *Env) User(t testing.TB, name string, groups ...string) *rest.Config {
	t.Helper()
	base := e.Config(t)
	user, err := e.env.AddUser(envtest.User{Name: name, Groups: groups}, base)
	if err != nil {
		t.Fatalf("adding user %q: %v", name, err)
	}
	return user.Config()
}

// Stop stops kube-apiserver and etcd; nothing when they did not start.
func (e *Env) Stop() error {
	if e.env == nil || e.err != nil {
		return nil
	}
	err := e.env.Stop()
	return errors.Join(err, os.RemoveAll(e.certDir))
}

// syncBuffer collects the API server's output, to show when it fails.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// tail returns the last n bytes written.
func (b *syncBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	data := b.buf.Bytes()
	if len(data) > n {
		data = data[len(data)-n:]
	}
	return string(data)
}

// InstallCRD creates the CustomResourceDefinition of file (YAML), unless
// it exists, and waits until the API server serves it.
func (e *Env) InstallCRD(t testing.TB, file string) {
	t.Helper()
	cfg := e.Config(t)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading the CRD: %v", err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(data, crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	api := apiextensionsclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	if _, err := api.Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("creating CRD %s: %v", crd.Name, err)
	}
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		got, err := api.Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("CRD %s not served: %v", crd.Name, err)
	}
}
