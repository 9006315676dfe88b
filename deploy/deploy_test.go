package deploy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// create creates u in the API server with strict field validation,
// creating its namespace first if need be, and returns what was stored;
// with dryRun, what would be stored.
func create(t *testing.T, cfg *rest.Config, mapper meta.RESTMapper, u *unstructured.Unstructured, dryRun bool) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	dyn := dynamic.NewForConfigOrDie(cfg)
	mapping, err := mapper.RESTMapping(u.GroupVersionKind().GroupKind(), u.GroupVersionKind().Version)
	require.NoError(t, err, u.GroupVersionKind().String())
	var api dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if u.GetNamespace() == "" {
			u.SetNamespace(metav1.NamespaceDefault)
		}
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: u.GetNamespace()}}
		_, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			require.NoError(t, err)
		}
		api = dyn.Resource(mapping.Resource).Namespace(u.GetNamespace())
	}
	opts := metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	created, err := api.Create(ctx, u, opts)
	require.NoError(t, err, "%s %s", u.GetKind(), u.GetName())
	return created
}

func newMapper(cfg *rest.Config) meta.RESTMapper {
	return restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(discovery.NewDiscoveryClientForConfigOrDie(cfg)))
}

// TestCRDsKeepRealObjects stores the project's Karmada objects (the
// examples, the binding golden Works, the webhook and customization
// fixtures) and reads them back unchanged: the CRDs prune nothing of them.
func TestCRDsKeepRealObjects(t *testing.T) {
	cfg := env.Config(t)
	mapper := newMapper(cfg)
	files := []string{
		"../testdata/examples/propagate/deployment-binding.yaml",
		"../testdata/examples/propagate/job-binding.yaml",
		"../testdata/examples/propagate/clusters.yaml",
		"../testdata/examples/propagate/policies.yaml",
		"../testdata/examples/propagate/cloneset-customization.yaml",
		"../testdata/customizations/cloneset-health.yaml",
		"../webhook/testdata/configurations/workloads.yaml",
	}
	works, err := filepath.Glob("../testdata/binding/golden/*/expected.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, works)
	kinds := map[string]bool{}
	for i, file := range append(files, works...) {
		t.Run(file, func(t *testing.T) {
			objs, err := (&manifest.Reader{}).Objects(file)
			require.NoError(t, err)
			for _, obj := range objs {
				u := &unstructured.Unstructured{Object: obj.Object}
				if u.GetKind() == "Work" && u.GetName() == "" {
					continue
				}
				if u.GetKind() == "Work" {
					u.SetName(fmt.Sprintf("%s-%d", u.GetName(), i)) // golden cases share names
				}
				created := create(t, cfg, mapper, u.DeepCopy(), false)
				kinds[u.GetKind()] = true
				for _, field := range []string{"spec", "webhooks"} {
					if want, ok := u.Object[field]; ok {
						assert.Equal(t, want, created.Object[field], "%s: %s %s: %s", obj.Source, u.GetKind(), u.GetName(), field)
					}
				}
			}
		})
	}
	for _, kind := range []string{"ResourceBinding", "Cluster", "OverridePolicy", "ClusterOverridePolicy", "Work",
		"ResourceInterpreterCustomization", "ResourceInterpreterWebhookConfiguration"} {
		assert.True(t, kinds[kind], "no %s among the objects", kind)
	}
}
