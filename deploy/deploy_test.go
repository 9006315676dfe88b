package deploy_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// TestManifests creates every object of the manifests, in the order they
// are applied, with strict field validation: the API server refuses a
// misspelt field or a wrong type.
func TestManifests(t *testing.T) {
	cfg := env.Config(t)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(discovery.NewDiscoveryClientForConfigOrDie(cfg)))
	dyn := dynamic.NewForConfigOrDie(cfg)
	for _, file := range []string{"namespace.yaml", "rbac.yaml", "luainterp.yaml", "admission.yaml"} {
		t.Run(file, func(t *testing.T) {
			objs, err := (&manifest.Reader{}).Objects(file)
			require.NoError(t, err)
			require.NotEmpty(t, objs)
			for _, obj := range objs {
				u := &unstructured.Unstructured{Object: obj.Object}
				mapping, err := mapper.RESTMapping(u.GroupVersionKind().GroupKind(), u.GroupVersionKind().Version)
				require.NoError(t, err, "%s: %s", obj.Source, u.GroupVersionKind())
				var api dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
				if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
					api = dyn.Resource(mapping.Resource).Namespace(u.GetNamespace())
				}
				_, err = api.Create(context.Background(), u, metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict})
				require.NoError(t, err, "%s: %s %s", obj.Source, u.GetKind(), u.GetName())
			}
		})
	}
}
