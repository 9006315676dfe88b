package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/builtin"
)

const layersCustomizations = "testdata/layers/customizations.yaml"

func TestLayers(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{{
		name: "a built-in kind",
		args: []string{"--api-version", "apps/v1", "--kind", "Deployment"},
		want: `apps/v1 Deployment
  InterpretReplica     builtin
  ReviseReplica        builtin
  InterpretComponent   -
  Retain               builtin
  AggregateStatus      builtin
  InterpretStatus      builtin
  InterpretHealth      builtin
  InterpretDependency  builtin
`,
	}, {
		name: "a customization answers first",
		args: []string{"--api-version", "apps/v1", "--kind", "Deployment", "-f", layersCustomizations},
		want: `apps/v1 Deployment
  InterpretReplica     builtin
  ReviseReplica        builtin
  InterpretComponent   -
  Retain               builtin
  AggregateStatus      builtin
  InterpretStatus      builtin
  InterpretHealth      customization
  InterpretDependency  builtin
`,
	}, {
		name: "an unknown kind gets only the whole status",
		args: []string{"--api-version", "autoscaling/v1", "--kind", "HorizontalPodAutoscaler"},
		want: `autoscaling/v1 HorizontalPodAutoscaler
  InterpretReplica     -
  ReviseReplica        -
  InterpretComponent   -
  Retain               -
  AggregateStatus      -
  InterpretStatus      builtin
  InterpretHealth      -
  InterpretDependency  -
`,
	}, {
		name:  "the kind of an object on standard input",
		stdin: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n",
		args:  []string{"--object-file", "-"},
		want: `v1 Secret
  InterpretReplica     -
  ReviseReplica        -
  InterpretComponent   -
  Retain               builtin
  AggregateStatus      -
  InterpretStatus      builtin
  InterpretHealth      -
  InterpretDependency  -
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.stdin, append([]string{"layers"}, tt.args...)...)
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, tt.want, r.stdout)
		})
	}
}

func TestLayersEveryKind(t *testing.T) {
	r := run(t, "", "layers", "-f", layersCustomizations, "-o", "json")
	require.NoError(t, r.err, r.stderr)
	var rows []kindLayers
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rows))
	byKind := map[string]kindLayers{}
	for _, row := range rows {
		key := row.APIVersion + " " + row.Kind
		require.NotContains(t, byKind, key, "listed twice")
		byKind[key] = row
		require.Len(t, row.Operations, 8)
	}
	for _, gvk := range builtin.Kinds() {
		assert.Contains(t, byKind, gvk.GroupVersion().String()+" "+gvk.Kind)
	}
	assert.Contains(t, byKind, "example.io/v1 Widget")
	assert.Contains(t, byKind, "apps.kruise.io/v1alpha1 CloneSet", "a bundled script's kind")
	layer := func(kind, op string) string {
		l := byKind[kind].Operations[op]
		if l == nil {
			return "-"
		}
		return *l
	}
	assert.Equal(t, "customization", layer("example.io/v1 Widget", "InterpretReplica"))
	assert.Equal(t, "thirdparty", layer("apps.kruise.io/v1alpha1 CloneSet", "InterpretReplica"))
	assert.Equal(t, "builtin", layer("example.io/v1 Widget", "InterpretStatus"))
	assert.Equal(t, "customization", layer("apps/v1 Deployment", "InterpretHealth"))
	assert.Equal(t, "-", layer("batch/v1 Job", "InterpretHealth"))
	assert.Equal(t, "builtin", layer("multicluster.x-k8s.io/v1alpha1 ServiceImport", "InterpretDependency"))
}

func TestLayersErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"kind without version", []string{"--kind", "Deployment"}, "--api-version and --kind: give both, or neither to list every known kind"},
		{"object and kind", []string{"--object-file", "x.yaml", "--kind", "Pod", "--api-version", "v1"}, "--object-file: give either an object or --api-version and --kind, not both"},
		{"bad version", []string{"--api-version", "a/b/c", "--kind", "K"}, "--api-version: unexpected GroupVersion string: a/b/c"},
		{"missing object file", []string{"--object-file", filepath.Join("testdata", "layers", "nope.yaml")}, "--object-file: testdata/layers/nope.yaml: no such file or directory"},
		{"bad format", []string{"-o", "xml"}, `--output: unknown format "xml": want text, yaml or json`},
		{"standard input twice", []string{"-f", "-", "--object-file", "-"}, "--object-file: standard input is already read for -f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"layers"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, tt.want, r.err.Error())
		})
	}
	t.Run("a broken customization", func(t *testing.T) {
		r := run(t, "kind: ResourceInterpreterCustomization\n", "layers", "-f", "-")
		require.Error(t, r.err)
		assert.Equal(t, "<stdin>:1: document 1: metadata.name: missing\n"+
			"<stdin>:1: document 1: apiVersion: missing, want config.karmada.io/v1alpha1\n"+
			"<stdin>:1: document 1: spec: missing", r.err.Error())
	})
}
