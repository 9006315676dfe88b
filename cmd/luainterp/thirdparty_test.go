package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bundledCloneSet is a CloneSet with no customization given: the bundled
// scripts answer for it.
const bundledCloneSet = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: storefront
  namespace: shop
  generation: 2
spec:
  replicas: 4
  template:
    spec:
      serviceAccountName: storefront
      containers:
      - name: web
        image: nginx
        resources:
          requests: {cpu: 250m, memory: 256Mi}
status:
  observedGeneration: 2
  replicas: 4
  updatedReplicas: 4
  availableReplicas: 3
`

func TestInterpretBundledScripts(t *testing.T) {
	cloneSet := writeFile(t, "cloneset.yaml", bundledCloneSet)
	const health = "../../testdata/customizations/cloneset-health.yaml"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{
			name: "InterpretReplica from the bundled script",
			args: []string{"--operation", "InterpretReplica", "--observed-file", cloneSet},
			want: "replica: 4\nrequires:\n  resourceRequest:\n    cpu: 250m\n    memory: 256Mi\n",
		},
		{
			name: "ReviseReplica from the bundled script",
			args: []string{"--operation", "ReviseReplica", "--observed-file", cloneSet, "--desired-replica", "1"},
			want: `revised:
  apiVersion: apps.kruise.io/v1alpha1
  kind: CloneSet
  metadata:
    generation: 2
    name: storefront
    namespace: shop
  spec:
    replicas: 1
    template:
      spec:
        containers:
        - image: nginx
          name: web
          resources:
            requests:
              cpu: 250m
              memory: 256Mi
        serviceAccountName: storefront
  status:
    availableReplicas: 3
    observedGeneration: 2
    replicas: 4
    updatedReplicas: 4
`,
		},
		{
			name: "InterpretHealth from the bundled script",
			args: []string{"--operation", "InterpretHealth", "--observed-file", cloneSet},
			want: "healthy: false\n",
		},
		{
			name: "a user customization on top answers what it defines",
			args: []string{"-f", health, "--operation", "InterpretHealth", "--observed-file", cloneSet},
			want: "healthy: true\n",
		},
		{
			name: "and the bundled script the rest",
			args: []string{"-f", health, "--operation", "InterpretDependency", "--observed-file", cloneSet},
			want: "dependencies:\n- apiVersion: v1\n  kind: ServiceAccount\n  name: storefront\n  namespace: shop\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"interpret"}, tt.args...)...)
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, tt.want, r.stdout)
			assert.Empty(t, r.stderr)
		})
	}
}

// TestTestBundledSuites runs `luainterp test` with no PATH from the
// repository's root: every bundled suite passes.
func TestTestBundledSuites(t *testing.T) {
	t.Chdir("../..")
	// One kind's cases, read from ./scripts: package scripts runs them all.
	r := run(t, "", "test", "--run", `^apps\.kruise\.io/v1alpha1/CloneSet/`)
	require.NoError(t, r.err, r.stdout)
	assert.Contains(t, r.stdout, "--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretReplica/")
	assert.NotContains(t, r.stdout, "FAIL")
	assert.Regexp(t, `(?m)^[1-9]\d* passed, 0 failed\n\z`, r.stdout)
}
