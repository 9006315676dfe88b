package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/admission"
	"github.com/luainterp/luainterp/kube/source"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(mainArgsVariable); ok { // a luainterp process of a test: see startProcess
		os.Exit(runProcess(args))
	}
	os.Exit(testenv.Main(m, &env))
}

// gadgetCustomization is a customization of example.io/v1 Gadget whose
// replicaResource script is given.
func gadgetCustomization(t testing.TB, name, script string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(fmt.Sprintf(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: %s
spec:
  target:
    apiVersion: example.io/v1
    kind: Gadget
  customizations:
    replicaResource:
      luaScript: %q
`, name, script)), &u.Object))
	return u
}

func gadgetReplicas(n int) string {
	return fmt.Sprintf("function GetReplicas(obj)\n  return %d, nil\nend\n", n)
}

// registerAdmission points a ValidatingWebhookConfiguration at the serve
// listening on addr until the test ends (or remove is called), and waits
// until the API server asks it.
func registerAdmission(t *testing.T, cfg *rest.Config, addr string) (remove func()) {
	t.Helper()
	ca, err := os.ReadFile(webhookTLS + "ca.crt")
	require.NoError(t, err)
	api := kubernetes.NewForConfigOrDie(cfg).AdmissionregistrationV1().ValidatingWebhookConfigurations()
	_, err = api.Create(context.Background(), &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "luainterp-test"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "resourceinterpretercustomizations.luainterp.io",
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule: admissionregistrationv1.Rule{APIGroups: []string{"config.karmada.io"}, APIVersions: []string{"v1alpha1"},
					Resources: []string{"resourceinterpretercustomizations"}, Scope: ptr.To(admissionregistrationv1.ClusterScope)},
			}},
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: ptr.To("https://" + addr + admission.Path), CABundle: ca},
			AdmissionReviewVersions: []string{"v1"},
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			FailurePolicy:           ptr.To(admissionregistrationv1.Fail),
			TimeoutSeconds:          ptr.To[int32](10),
		}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	removed := false
	remove = func() {
		if !removed {
			removed = true
			require.NoError(t, api.Delete(context.Background(), "luainterp-test", metav1.DeleteOptions{}))
		}
	}
	t.Cleanup(remove)
	// The API server takes up a new configuration asynchronously: probe
	// with a dry-run create of a broken customization until it is refused.
	rics := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	probe := gadgetCustomization(t, "admission-probe", "function GetReplicas(")
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := rics.Create(context.Background(), probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && strings.Contains(err.Error(), "denied the request") {
			return remove
		}
		require.True(t, time.Now().Before(deadline), "the API server did not ask the admission webhook within 30s (last: %v)", err)
		time.Sleep(50 * time.Millisecond)
	}
}

// gadgetAnswer POSTs an InterpretReplica request for a Gadget to serve and
// returns the replicas answered, or -1 when the operation failed.
func gadgetAnswer(t *testing.T, client *http.Client, url string) float64 {
	t.Helper()
	got := postReview(t, client, url, `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
		"request":{"uid":"u-1","operation":"InterpretReplica","object":{"apiVersion":"example.io/v1","kind":"Gadget","metadata":{"name":"g","namespace":"default"}}}}`)
	if got["successful"] != true {
		return -1
	}
	n, _ := got["replicas"].(float64)
	return n
}

// TestServeKube runs serve against the API server: the customizations
// applied there answer the next webhook requests, and the API server asks
// serve before it stores one.
func TestServeKube(t *testing.T) {
	cfg := env.Config(t)
	s := startServe(t, "--kubeconfig", env.KubeConfig(t), "--tls-cert", webhookTLS+"tls.crt", "--tls-key", webhookTLS+"tls.key")
	ca, err := os.ReadFile(webhookTLS + "ca.crt")
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ca))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	url := "https://" + s.addr + "/interpret"
	rics := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	ctx := context.Background()
	t.Cleanup(func() {
		for _, name := range []string{"gadget", "gadget-second", "gadget-broken"} {
			_ = rics.Delete(ctx, name, metav1.DeleteOptions{})
		}
	})
	// until returns how long the webhook took to answer want.
	until := func(t *testing.T, what string, want float64) time.Duration {
		t.Helper()
		start := time.Now()
		for gadgetAnswer(t, client, url) != want {
			require.Less(t, time.Since(start), 30*time.Second, "%s: the webhook does not answer %v", what, want)
			time.Sleep(time.Millisecond)
		}
		return time.Since(start)
	}
	assert.Contains(t, s.stderr.String(), `msg="loaded 0 customizations and 0 webhook configurations from the API server, 0 and 0 from files" apiServer=`+strings.TrimSuffix(cfg.Host, "/"))
	require.Equal(t, -1.0, gadgetAnswer(t, client, url), "no layer answers for a Gadget yet")

	removeAdmission := registerAdmission(t, cfg, s.addr)

	t.Run("an applied customization answers the next requests", func(t *testing.T) {
		_, err := rics.Create(ctx, gadgetCustomization(t, "gadget", gadgetReplicas(1)), metav1.CreateOptions{})
		require.NoError(t, err)
		t.Logf("create -> answered in %s", until(t, "created", 1))
	})
	t.Run("an update answers", func(t *testing.T) {
		current, err := rics.Get(ctx, "gadget", metav1.GetOptions{})
		require.NoError(t, err)
		updated := gadgetCustomization(t, "gadget", gadgetReplicas(2))
		updated.SetResourceVersion(current.GetResourceVersion())
		_, err = rics.Update(ctx, updated, metav1.UpdateOptions{})
		require.NoError(t, err)
		t.Logf("update -> answered in %s", until(t, "updated", 2))
	})
	t.Run("a broken customization is refused at admission", func(t *testing.T) {
		_, err := rics.Create(ctx, gadgetCustomization(t, "gadget-broken", "function GetReplicas(obj)\n  return 1 +\nend\n"), metav1.CreateOptions{})
		require.Error(t, err)
		assert.Equal(t, `admission webhook "resourceinterpretercustomizations.luainterp.io" denied the request: `+
			`resourceinterpretercustomization/gadget-broken:11: document 1 "gadget-broken": spec.customizations.replicaResource.luaScript: Lua line 3: syntax error near "end": syntax error`, err.Error())
	})
	t.Run("a second customization of the same operation is refused at admission", func(t *testing.T) {
		_, err := rics.Create(ctx, gadgetCustomization(t, "gadget-second", gadgetReplicas(3)), metav1.CreateOptions{})
		require.Error(t, err)
		assert.Equal(t, `admission webhook "resourceinterpretercustomizations.luainterp.io" denied the request: `+
			`resourceinterpretercustomization/gadget-second:1: document 1 "gadget-second": spec.customizations.replicaResource: already defined for example.io/v1, Kind=Gadget by customization "gadget"; a kind's operation is defined by one customization only`, err.Error())
	})
	t.Run("with admission bypassed a broken customization is kept out with an Event", func(t *testing.T) {
		removeAdmission()
		current, err := rics.Get(ctx, "gadget", metav1.GetOptions{})
		require.NoError(t, err)
		broken := gadgetCustomization(t, "gadget", "function GetReplicas(obj)\n  return 1 +\nend\n")
		broken.SetResourceVersion(current.GetResourceVersion())
		// The API server may still ask the webhook for a moment after the deletion.
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err = rics.Update(ctx, broken, metav1.UpdateOptions{}); err == nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		require.NoError(t, err)
		events := kubernetes.NewForConfigOrDie(cfg).CoreV1().Events(metav1.NamespaceDefault)
		var message string
		start := time.Now()
		for message == "" {
			require.Less(t, time.Since(start), 30*time.Second, "no LoadFailed Event")
			list, err := events.List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=gadget,reason=" + source.ReasonLoadFailed})
			require.NoError(t, err)
			if len(list.Items) > 0 {
				message = list.Items[0].Message
			}
			time.Sleep(10 * time.Millisecond)
		}
		assert.Regexp(t, `^not loaded \(resourceVersion \d+ still serves\): resourceinterpretercustomization/gadget:11: document 1 "gadget": spec\.customizations\.replicaResource\.luaScript: Lua line 3: syntax error near "end": syntax error$`, message)
		assert.Equal(t, 2.0, gadgetAnswer(t, client, url), "the last good version serves")
		resp, err := client.Get("https://" + s.addr + "/metrics")
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Contains(t, string(body), `luainterp_kube_object_loads_total{kind="ResourceInterpreterCustomization",outcome="invalid"} 1`)
		assert.Contains(t, string(body), `luainterp_kube_objects{kind="ResourceInterpreterCustomization",state="invalid"} 1`)
	})
	t.Run("a deleted customization answers no more", func(t *testing.T) {
		require.NoError(t, rics.Delete(ctx, "gadget", metav1.DeleteOptions{}))
		t.Logf("delete -> gone in %s", until(t, "deleted", -1))
	})
}

func TestLayersKube(t *testing.T) {
	cfg := env.Config(t)
	rics := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	ctx := context.Background()
	for _, name := range []string{"gadget-layers-b", "gadget-layers"} {
		_, err := rics.Create(ctx, gadgetCustomization(t, name, gadgetReplicas(1)), metav1.CreateOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = rics.Delete(ctx, name, metav1.DeleteOptions{}) })
	}

	r := run(t, "", "layers", "--kubeconfig", env.KubeConfig(t), "--api-version", "example.io/v1", "--kind", "Gadget")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, `example.io/v1 Gadget
  InterpretReplica     customization
  ReviseReplica        -
  InterpretComponent   -
  Retain               -
  AggregateStatus      -
  InterpretStatus      builtin
  InterpretHealth      -
  InterpretDependency  -

from the API server `+strings.TrimSuffix(cfg.Host, "/")+`:
  customizations: gadget-layers, gadget-layers-b
  webhook configurations: none
  conflict: replicaResource of example.io/v1, Kind=Gadget: "gadget-layers" is used, "gadget-layers-b" is not (customizations apply in name order, the first wins)
`, r.stdout)

	r = run(t, "", "layers", "--kubeconfig", env.KubeConfig(t), "--in-cluster")
	require.Error(t, r.err)
	assert.Equal(t, "--kubeconfig or --context, and --in-cluster: give one or the other", r.err.Error())
}
