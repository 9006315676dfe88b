package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestServeKubeArgoCDConfigMap runs serve following an argocd-cm in the
// API server: an edit of the ConfigMap changes the InterpretHealth answer
// for its kind within seconds, and a broken edit keeps the last good one.
func TestServeKubeArgoCDConfigMap(t *testing.T) {
	cfg := env.Config(t)
	cms := kubernetes.NewForConfigOrDie(cfg).CoreV1().ConfigMaps(metav1.NamespaceDefault)
	ctx := context.Background()
	t.Cleanup(func() { _ = cms.Delete(ctx, "argocd-cm", metav1.DeleteOptions{}) })
	s := startServe(t, "--kubeconfig", env.KubeConfig(t), "--argocd-customizations", fixtureArgoCDTree, "--argocd-cm-name", "default/argocd-cm")
	url := "http://" + s.addr + "/interpret"
	client := &http.Client{}

	// answer is the webhook's InterpretHealth of a ready Gadget: "true",
	// "false", or "none" when it fails.
	answer := func() string {
		got := postReview(t, client, url, `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
			"request":{"uid":"u-1","operation":"InterpretHealth","object":{"apiVersion":"example.com/v1","kind":"Gadget",
			"metadata":{"name":"g","namespace":"default"},"status":{"phase":"Ready"}}}}`)
		if got["successful"] != true {
			return "none"
		}
		if got["healthy"] == true {
			return "true"
		}
		return "false"
	}
	until := func(t *testing.T, want string) time.Duration {
		t.Helper()
		start := time.Now()
		for answer() != want {
			require.Less(t, time.Since(start), 30*time.Second, "the webhook does not answer %s", want)
			time.Sleep(5 * time.Millisecond)
		}
		return time.Since(start)
	}
	script := func(status string) map[string]string {
		return map[string]string{"resource.customizations.health.example.com_Gadget": `return {status = "` + status + `"}`}
	}
	require.Equal(t, "none", answer(), "no script for a Gadget yet")

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cm"}, Data: script("Progressing")}
	cm, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Logf("create -> answered in %s", until(t, "false"))

	cm.Data = script("Healthy")
	cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	t.Logf("edit -> answered in %s", until(t, "true"))

	cm.Data["resource.customizations.useOpenLibs.example.com_Gadget"] = "maybe"
	cm.Data["resource.customizations.health.example.com_Gadget"] = `return {status = "Degraded"}`
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(s.stderr.String(), "argocd-cm not loaded") }, 30*time.Second, 10*time.Millisecond)
	require.Equal(t, "true", answer(), "a ConfigMap that cannot be read keeps the last good scripts")

	require.NoError(t, cms.Delete(ctx, "argocd-cm", metav1.DeleteOptions{}))
	t.Logf("delete -> answered in %s", until(t, "none"))
}
