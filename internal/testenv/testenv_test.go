package testenv_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

func TestAPIServer(t *testing.T) {
	cfg := env.Config(t)
	ctx := context.Background()

	t.Run("serves the version it was built as", func(t *testing.T) {
		info, err := discovery.NewDiscoveryClientForConfigOrDie(cfg).ServerVersion()
		require.NoError(t, err)
		assert.Equal(t, "v"+testenv.Version, info.GitVersion)
	})
	t.Run("has the CRDs installed", func(t *testing.T) {
		resources, err := discovery.NewDiscoveryClientForConfigOrDie(cfg).ServerResourcesForGroupVersion("config.karmada.io/v1alpha1")
		require.NoError(t, err)
		var names []string
		for _, r := range resources.APIResources {
			names = append(names, r.Name)
		}
		assert.ElementsMatch(t, []string{"resourceinterpretercustomizations", "resourceinterpreterwebhookconfigurations"}, names)
	})
	t.Run("a user has only what RBAC grants", func(t *testing.T) {
		nobody := env.User(t, "nobody")
		_, err := kubernetes.NewForConfigOrDie(nobody).CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		assert.True(t, apierrors.IsForbidden(err), "listing namespaces as nobody: %v", err)
		gvr := schema.GroupVersionResource{Group: "config.karmada.io", Version: "v1alpha1", Resource: "resourceinterpretercustomizations"}
		_, err = dynamic.NewForConfigOrDie(cfg).Resource(gvr).List(ctx, metav1.ListOptions{})
		assert.NoError(t, err, "listing customizations as admin")
	})
}
