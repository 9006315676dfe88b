package controller_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/kube/controller"
)

// TestGroupVersionMapper maps kinds through the API server's discovery of
// their group version alone, and finds a CRD installed after a miss.
func TestGroupVersionMapper(t *testing.T) {
	cfg := env.Config(t)
	mapping, kept := controller.NewGroupVersionMapper(discovery.NewDiscoveryClientForConfigOrDie(cfg))

	deployment, err := mapping(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	require.NoError(t, err)
	assert.Equal(t, deployments, deployment.Resource)
	assert.Equal(t, meta.RESTScopeNameNamespace, deployment.Scope.Name())

	namespaces, err := mapping(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"})
	require.NoError(t, err)
	assert.Equal(t, schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, namespaces.Resource)
	assert.Equal(t, meta.RESTScopeNameRoot, namespaces.Scope.Name())
	assert.Equal(t, 2, kept(), "only the group versions asked about are kept")

	_, err = mapping(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Gizmo"})
	assert.True(t, meta.IsNoMatchError(err), "an unknown kind of a known group version: %v", err)
	_, err = mapping(schema.GroupVersionKind{Group: "apps", Kind: "Deployment"})
	assert.ErrorContains(t, err, "a version is needed")

	group := fmt.Sprintf("mapper%d.example.io", time.Now().UnixNano())
	widget := schema.GroupVersionKind{Group: group, Version: "v1", Kind: "Widget"}
	_, err = mapping(widget)
	require.True(t, meta.IsNoMatchError(err), "a group not served yet: %v", err)

	installWidgets(t, dynamic.NewForConfigOrDie(cfg), group)
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		widgets, err := mapping(widget)
		if assert.NoError(c, err) {
			assert.Equal(c, schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}, widgets.Resource)
			assert.Equal(c, meta.RESTScopeNameNamespace, widgets.Scope.Name())
		}
	}, 30*time.Second, 100*time.Millisecond)
	assert.Equal(t, 3, kept())
}

// installWidgets installs a namespaced CRD of kind Widget in group, removed
// when the test ends.
func installWidgets(t *testing.T, dyn dynamic.Interface, group string) {
	t.Helper()
	crd := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.%[1]s
spec:
  group: %[1]s
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, group)), &crd.Object))
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	_, err := crds.Create(context.Background(), crd, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = crds.Delete(context.Background(), crd.GetName(), metav1.DeleteOptions{}) })
}
