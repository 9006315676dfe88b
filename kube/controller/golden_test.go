package controller_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
)

// TestGoldenCases puts every binding case of propagate's golden and
// conformance suites into the API server, one after the other: its
// template, binding, Clusters and policies. The controller's Works are
// the pipeline's for what is stored (the template gets a new uid and
// generation there) and as many as the case expects; then the binding is
// deleted and its Works go with it. A case whose template the API server
// refuses (a Job with the labels its controller sets, which those cases
// are about; a Service IP outside the test range) is skipped, saying why.
func TestGoldenCases(t *testing.T) {
	c := newCluster(t)
	c.run()
	dirs, err := filepath.Glob("../../testdata/binding/golden/*")
	require.NoError(t, err)
	conformance, err := filepath.Glob("../../testdata/conformance/binding/*")
	require.NoError(t, err)
	dirs = append(dirs, conformance...)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			c := c.with(t)
			template := readObjects(t, filepath.Join(dir, "template.yaml"), nil)[0]
			rb := readObjects(t, filepath.Join(dir, "binding.yaml"), nil)[0]
			if template.GetNamespace() != "" {
				c.namespace(template.GetNamespace())
			}
			existing := template.GetKind() == "Namespace" && c.get(template) != nil // made by another test: it cannot go
			if err := c.try(template); err != nil && !existing {
				t.Skipf("the API server refuses the template: %v", err)
			}
			var b api.ResourceBinding
			decodeInto(t, rb, &b)
			for _, target := range binding.TargetClusters(&b.Spec) {
				c.namespace(binding.ExecutionNamespace(target.Name))
			}
			var created []*unstructured.Unstructured
			for _, file := range []string{"clusters.yaml", "policies.yaml"} {
				for _, u := range readObjects(t, filepath.Join(dir, file), nil) {
					if u.GetNamespace() != "" {
						c.namespace(u.GetNamespace())
					}
					created = append(created, c.create(u))
				}
			}
			t.Cleanup(func() {
				for _, u := range created {
					c.delete(u)
				}
				if template.GetKind() != "Namespace" { // it would stay Terminating: envtest has no namespace controller
					c.delete(template)
				}
			})
			if existing {
				c.update(template, func(u *unstructured.Unstructured) {
					u.SetLabels(template.GetLabels())
					u.SetAnnotations(template.GetAnnotations())
				})
			} else {
				c.create(template)
			}
			if rb.GetNamespace() != "" {
				c.namespace(rb.GetNamespace())
			}
			rb = c.create(rb)

			works := c.converge(rb)
			expected, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
			require.NoError(t, err)
			want := readObjects(t, filepath.Join(dir, "expected.yaml"), nil)
			if len(expected) == 0 {
				want = nil
			}
			require.Len(t, works, len(want))

			c.delete(rb)
			for k := range works {
				c.letGo(split(k))
			}
			require.True(t, assertEventually(func() bool { return c.get(rb) == nil }), "the binding's finalizer stayed")
		})
	}
}
