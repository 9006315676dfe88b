// Package testenv runs the tests that talk to Kubernetes against a real
// kube-apiserver and etcd on 127.0.0.1, with the CRDs of deploy/crds
// installed: controller-runtime's envtest, on binaries the project builds
// itself (hack/envtest-binaries.sh).
//
// One API server serves a whole test package; start it from TestMain:
//
//	var env *testenv.Env
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }
//
//	func TestSomething(t *testing.T) {
//		cfg := env.Config(t) // skips, or fails in CI, without the binaries
//		...
//	}
//
// The binaries are looked for in $KUBEBUILDER_ASSETS, else in the folder
// the script builds into ($LUAINTERP_ENVTEST_DIR, else
// ~/.cache/luainterp/envtest/1.37.2). When they are missing a test skips,
// unless $LUAINTERP_REQUIRE_APISERVER is set (CI sets it): then it fails.
// An API server that is there but does not start always fails the tests.
//
// A test that needs an API server of other settings (a feature gate on:
// WithFeatureGates) starts an Env of its own with Start and stops it.
//
// The API server presents a client certificate to every admission
// webhook, as one set up with an AdmissionConfiguration does; its CA is
// Env.WebhookClientCA.
//
// LookPath does the same for a program a test runs (Chromium, promtool):
// skipped without it, failed without it when the test's LUAINTERP_REQUIRE_*
// variable is 1.
package testenv
