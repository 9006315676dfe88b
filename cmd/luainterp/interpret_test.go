package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	exampleCustomization = "../../testdata/examples/customization.yaml"
	exampleWorkload      = "../../testdata/examples/workload.yaml"
)

func TestInterpretExample(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{
			name: "InterpretReplica",
			args: []string{"--operation", "InterpretReplica", "--observed-file", exampleWorkload},
			want: `replica: 3
requires:
  nodeClaim:
    nodeSelector:
      kubernetes.io/os: linux
    tolerations:
    - effect: NoSchedule
      key: dedicated
      operator: Equal
      value: shop
  resourceRequest:
    cpu: "1"
    memory: 640Mi
`,
		},
		{
			name: "InterpretReplica as JSON",
			args: []string{"--operation", "interpretreplica", "--desired-file", exampleWorkload, "-o", "json"},
			want: `{
  "replica": 3,
  "requires": {
    "nodeClaim": {
      "nodeSelector": {
        "kubernetes.io/os": "linux"
      },
      "tolerations": [
        {
          "key": "dedicated",
          "operator": "Equal",
          "value": "shop",
          "effect": "NoSchedule"
        }
      ]
    },
    "resourceRequest": {
      "cpu": "1",
      "memory": "640Mi"
    }
  }
}
`,
		},
		{
			name: "InterpretHealth",
			args: []string{"--operation", "InterpretHealth", "--observed-file", exampleWorkload, "-o", "json"},
			want: "{\n  \"healthy\": true\n}\n",
		},
		{
			name: "InterpretDependency",
			args: []string{"--operation", "InterpretDependency", "--observed-file", exampleWorkload},
			want: exampleDependencies,
		},
		{
			name: "InterpretStatus",
			args: []string{"--operation", "InterpretStatus", "--observed-file", exampleWorkload},
			want: `status:
  availableReplicas: 3
  generation: 4
  observedGeneration: 4
  readyReplicas: 3
  replicas: 3
  updatedReadyReplicas: 3
  updatedReplicas: 3
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"interpret", "-f", exampleCustomization}, tt.args...)...)
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, tt.want, r.stdout)
			assert.Empty(t, r.stderr)
		})
	}
}

// brokenHooks is a CloneSet customization with one good, one broken and
// one misspelt rule; its GetReplicas fails at run time for replicas > 10.
const brokenHooks = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: broken
spec:
  target:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
  customizations:
    replicaResource:
      luaScript: |-
        function GetReplicas(obj)
          print("asked for " .. obj.spec.replicas)
          if obj.spec.replicas > 10 then
            error("too many replicas")
          end
          return obj.spec.replicas, nil
        end
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status.ready ==
        end
    statusReflexion:
      luaScript: "function ReflectStatus(obj) return obj.status end"
`

func TestInterpretCheck(t *testing.T) {
	t.Run("all pass", func(t *testing.T) {
		r := run(t, "", "interpret", "-f", exampleCustomization, "--check")
		require.NoError(t, r.err)
		assert.Equal(t, `PASS   cloneset-example  replicaResource
PASS   cloneset-example  replicaRevision
UNSET  cloneset-example  componentResource
PASS   cloneset-example  retention
PASS   cloneset-example  statusAggregation
PASS   cloneset-example  statusReflection
PASS   cloneset-example  healthInterpretation
PASS   cloneset-example  dependencyInterpretation
`, r.stdout)
	})
	t.Run("errors", func(t *testing.T) {
		path := writeFile(t, "broken.yaml", brokenHooks)
		r := run(t, "", "interpret", "-f", path, "--check")
		assert.Equal(t, 1, r.code)
		assert.Equal(t, "2 of the rules failed\n", r.stderr)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		require.Len(t, lines, 9, r.stdout)
		assert.Equal(t, `ERROR  broken  statusReflexion           `+path+`:24: document 1 "broken": spec.customizations.statusReflexion: unknown field, did you mean "statusReflection"?`, lines[0])
		assert.Equal(t, `PASS   broken  replicaResource`, strings.TrimSpace(lines[1]))
		assert.Equal(t, `UNSET  broken  statusReflection`, strings.TrimSpace(lines[6]))
		assert.Regexp(t, `^ERROR  broken  healthInterpretation      `+regexpQuote(path)+`:23: document 1 "broken": spec.customizations.healthInterpretation.luaScript: Lua line 3: `, lines[7])
	})
	t.Run("one operation defined twice", func(t *testing.T) {
		// Admission refuses the second customization; --check agrees.
		second := strings.NewReplacer("name: linted", "name: linted-too", "replicas, nil", "replicas + 1, nil").Replace(lintedHooks)
		path := writeFile(t, "twice.yaml", lintedHooks+"---\n"+second)
		r := run(t, "", "interpret", "-f", path, "--check")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "ERROR  linted-too  replicaResource           "+path+`:25: document 2 "linted-too": spec.customizations.replicaResource: `+
			`already defined for example.io/v1, Kind=Widget by customization "linted"; a kind's operation is defined by one customization only`+"\n")
		assert.Contains(t, r.stdout, "ERROR  linted-too  dependencyInterpretation  ")
		assert.Contains(t, r.stderr, "3 of the rules failed\n")
	})
	t.Run("nothing to check", func(t *testing.T) {
		path := writeFile(t, "misspelt.yaml", strings.Replace(lintedHooks, "kind: ResourceInterpreterCustomization", "kind: ResourceInterpreterCustomisation", 1))
		r := run(t, "", "interpret", "-f", path, "--check")
		assert.Equal(t, 1, r.code, "a check of nothing cannot pass")
		assert.Empty(t, r.stdout)
		assert.Equal(t, "warning: "+path+":1: document 1: skipped config.karmada.io/v1alpha1 ResourceInterpreterCustomisation: not a ResourceInterpreterCustomization\n"+
			"error: --check: no ResourceInterpreterCustomization in "+path+"\n", r.stderr)

		r = run(t, "", "interpret", "-f", path, "--check", "-o", "json")
		assert.Equal(t, 1, r.code)
		assert.JSONEq(t, `{"rules":[],"failed":0,"warned":0,"customizations":0}`, r.stdout)
	})
	t.Run("lint", func(t *testing.T) {
		path := writeFile(t, "linted.yaml", lintedHooks)
		r := run(t, "", "interpret", "-f", path, "--check")
		assert.Equal(t, 0, r.code, "the linter warns")
		assert.Equal(t, `PASS   linted  replicaResource
UNSET  linted  replicaRevision
UNSET  linted  componentResource
UNSET  linted  retention
UNSET  linted  statusAggregation
UNSET  linted  statusReflection
WARN   linted  healthInterpretation      `+path+`:17: document 1 "linted": spec.customizations.healthInterpretation.luaScript: Lua line 1: require("json"): Karmada's Lua VM has no module "json", so the script fails there
WARN   linted  dependencyInterpretation  `+path+`:22: document 1 "linted": spec.customizations.dependencyInterpretation.luaScript: Lua line 2: global "kube" is read but never assigned, and the sandbox has none (local kube = require("kube")?)
`, r.stdout)

		r = run(t, "", "interpret", "-f", path, "--check", "--strict")
		assert.Equal(t, 1, r.code, "--strict makes them errors")
		assert.Contains(t, r.stdout, "ERROR  linted  healthInterpretation ")
		assert.Contains(t, r.stdout, "ERROR  linted  dependencyInterpretation ")
		assert.Equal(t, "2 of the rules failed\n", r.stderr)

		r = run(t, "", "interpret", "-f", path, "--check", "-o", "json")
		assert.Equal(t, 0, r.code)
		var report struct {
			Rules []struct {
				Customization, File, Key, Verdict string
				Line                              int
				Warnings                          []string
			}
			Failed, Warned, Customizations int
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &report), r.stdout)
		assert.Equal(t, []int{0, 2, 1}, []int{report.Failed, report.Warned, report.Customizations})
		require.Len(t, report.Rules, 8)
		assert.Equal(t, "WARN", report.Rules[7].Verdict)
		assert.Equal(t, "dependencyInterpretation", report.Rules[7].Key)
		assert.Equal(t, []string{path + `:22: document 1 "linted": spec.customizations.dependencyInterpretation.luaScript: Lua line 2: global "kube" is read but never assigned, and the sandbox has none (local kube = require("kube")?)`}, report.Rules[7].Warnings)
	})
}

// lintedHooks holds scripts that compile and would fail: one on Karmada
// (require of json), one anywhere (kube never required).
const lintedHooks = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: linted
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          return obj.spec.replicas, nil
        end
    healthInterpretation:
      luaScript: |
        local json = require("json")
        function InterpretHealth(obj) return json ~= nil end
    dependencyInterpretation:
      luaScript: |
        function GetDependencies(obj)
          return kube.getPodDependencies(obj.spec.template, obj.metadata.namespace)
        end
`

// TestInterpretObjects runs the operations that return an object and
// checks the fields their scripts set.
func TestInterpretObjects(t *testing.T) {
	statusFile := writeFile(t, "status.yaml", `- clusterName: north
  applied: true
  health: Healthy
  status: {generation: 4, observedGeneration: 4, replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2}
- clusterName: south
  applied: true
  health: Healthy
  status: {generation: 4, observedGeneration: 3, replicas: 1, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 1, updatedReadyReplicas: 0}
`)
	observed := writeFile(t, "observed.json", `{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
  "metadata": {"name": "storefront", "namespace": "shop"},
  "spec": {"replicas": 5, "updateStrategy": {"paused": true}}}`)
	tests := []struct {
		name  string
		stdin string
		args  []string
		path  []string // the field to check in the output
		want  any
	}{
		{
			name: "ReviseReplica",
			args: []string{"--operation", "ReviseReplica", "--observed-file", exampleWorkload, "--desired-replica", "7"},
			path: []string{"revised", "spec", "replicas"},
			want: float64(7),
		},
		{
			name:  "ReviseReplica from stdin",
			stdin: "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: x}\nspec: {replicas: 1}\n",
			args:  []string{"--operation", "ReviseReplica", "--observed-file", "-", "--desired-replica", "0"},
			path:  []string{"revised", "spec", "replicas"},
			want:  float64(0),
		},
		{
			name: "Retain keeps the member's pause",
			args: []string{"--operation", "Retain", "--desired-file", exampleWorkload, "--observed-file", observed},
			path: []string{"retained", "spec", "updateStrategy"},
			want: map[string]any{"type": "InPlaceIfPossible", "maxUnavailable": float64(1), "paused": true},
		},
		{
			name: "AggregateStatus sums the members",
			args: []string{"--operation", "AggregateStatus", "--desired-file", exampleWorkload, "--status-file", statusFile},
			path: []string{"aggregatedStatus", "status"},
			want: map[string]any{"replicas": float64(3), "readyReplicas": float64(2), "availableReplicas": float64(2),
				"updatedReplicas": float64(3), "updatedReadyReplicas": float64(2), "observedGeneration": float64(4)},
		},
		{
			name: "AggregateStatus with no status items",
			args: []string{"--operation", "AggregateStatus", "--desired-file", exampleWorkload},
			path: []string{"aggregatedStatus", "status", "replicas"},
			want: float64(0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.stdin, append([]string{"interpret", "-f", exampleCustomization, "-o", "json"}, tt.args...)...)
			require.NoError(t, r.err, r.stderr)
			var got any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
			for _, key := range tt.path {
				require.IsType(t, map[string]any{}, got, "at %s", key)
				got = got.(map[string]any)[key]
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestInterpretScriptFails(t *testing.T) {
	fixed := strings.Replace(brokenHooks, "return obj.status.ready ==", "return obj.status.ready", 1)
	path := writeFile(t, "hooks.yaml", strings.Replace(fixed, "statusReflexion", "statusReflection", 1))
	cloneSet := func(replicas int) string {
		return fmt.Sprintf("apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: big}\nspec: {replicas: %d}\n", replicas)
	}
	args := []string{"interpret", "-f", path, "--operation", "InterpretReplica", "--observed-file", "-"}

	r := run(t, cloneSet(11), args...)
	require.Error(t, r.err)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "InterpretReplica: "+path+`:15: document 1 "broken": spec.customizations.replicaResource.luaScript: Lua line 4: too many replicas`, r.err.Error())
	assert.Empty(t, r.stdout)
	assert.Equal(t, "asked for 11\n", r.stderr, "Lua print output goes to stderr")

	r = run(t, cloneSet(2), args...)
	require.NoError(t, r.err)
	assert.Equal(t, "replica: 2\nrequires: null\n", r.stdout)
	assert.Equal(t, "asked for 2\n", r.stderr)
}

func TestInterpretCustomizationFromStdin(t *testing.T) {
	example, err := os.ReadFile(exampleCustomization)
	require.NoError(t, err)
	r := run(t, string(example), "interpret", "-f", "-", "--operation", "InterpretHealth", "--observed-file", exampleWorkload)
	require.NoError(t, r.err)
	assert.Equal(t, "healthy: true\n", r.stdout)
}

// TestInterpretFallsThrough runs a kind the customization does not cover:
// the built-in layer answers, with and without -f.
func TestInterpretFallsThrough(t *testing.T) {
	deployment := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: web
        image: web:1
        resources: {requests: {cpu: 250m}}
`
	want := "replica: 2\nrequires:\n  resourceRequest:\n    cpu: 250m\n"
	for _, args := range [][]string{nil, {"-f", exampleCustomization}} {
		r := run(t, deployment, append([]string{"interpret", "--operation", "InterpretReplica", "--observed-file", "-"}, args...)...)
		require.NoError(t, r.err)
		assert.Equal(t, want, r.stdout)
	}
}

// TestInterpretWarnings gives a folder of manifests: the Deployment in it
// is skipped with a warning on stderr, and a second customization of the
// same kind and operation is named as shadowed.
func TestInterpretWarnings(t *testing.T) {
	dir := t.TempDir()
	example, err := os.ReadFile(exampleCustomization)
	require.NoError(t, err)
	shadow := strings.Replace(string(example), "name: cloneset-example", "name: zz-cloneset-shadow", 1)
	files := map[string]string{
		"a-hooks.yaml": string(example),
		"b-more.yaml":  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\n" + shadow,
	}
	for name, contents := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(contents), 0o644))
	}
	r := run(t, "", "interpret", "-f", dir, "--operation", "InterpretHealth", "--observed-file", exampleWorkload)
	require.NoError(t, r.err)
	assert.Equal(t, "healthy: true\n", r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	require.Len(t, lines, 7, r.stderr) // the Deployment, and one per operation of the shadow but dependencyInterpretation
	more := filepath.Join(dir, "b-more.yaml")
	assert.Equal(t, "warning: "+more+":1: document 1: skipped apps/v1 Deployment: not a ResourceInterpreterCustomization", lines[0])
	assert.Equal(t, "warning: "+more+`:10: document 2 "zz-cloneset-shadow": replicaResource for apps.kruise.io/v1alpha1, Kind=CloneSet is also defined by "cloneset-example"; "cloneset-example" is used (customizations apply in name order, the first wins)`, lines[1])
	assert.NotContains(t, r.stderr, "dependencyInterpretation", "every customization's dependencies are merged: none is shadowed")

	r = run(t, "", "interpret", "-f", dir, "--operation", "InterpretDependency", "--observed-file", exampleWorkload)
	require.NoError(t, r.err)
	assert.Equal(t, exampleDependencies, r.stdout, "both customizations' references, each once")
}

// exampleDependencies are the example customization's dependencies of
// the example workload, sorted by apiVersion, kind, namespace and name.
const exampleDependencies = `dependencies:
- apiVersion: v1
  kind: ConfigMap
  name: storefront-config
  namespace: shop
- apiVersion: v1
  kind: PersistentVolumeClaim
  name: storefront-cache
  namespace: shop
- apiVersion: v1
  kind: Secret
  name: storefront-db
  namespace: shop
- apiVersion: v1
  kind: ServiceAccount
  name: storefront
  namespace: shop
`

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`, "(", `\(`, ")", `\)`).Replace(s)
}

func TestInterpretFailures(t *testing.T) {
	broken := writeFile(t, "broken.yaml", brokenHooks)
	tests := []struct {
		name    string
		stdin   string
		args    []string
		want    string // the error, in full
		wantOut string // stdout
	}{
		{
			name: "no operation",
			args: []string{"-f", exampleCustomization},
			want: "--operation: required (or --check)",
		},
		{
			name: "unknown operation",
			args: []string{"--operation", "Prune", "--observed-file", exampleWorkload},
			want: `--operation: unknown operation "Prune": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency`,
		},
		{
			name: "unknown format",
			args: []string{"--operation", "InterpretHealth", "--observed-file", exampleWorkload, "-o", "xml"},
			want: `--output: unknown format "xml": want yaml or json`,
		},
		{
			name: "no object",
			args: []string{"-f", exampleCustomization, "--operation", "InterpretHealth"},
			want: "--observed-file or --desired-file: required for InterpretHealth",
		},
		{
			name: "retain without observed",
			args: []string{"-f", exampleCustomization, "--operation", "Retain", "--desired-file", exampleWorkload},
			want: "--desired-file and --observed-file: required for Retain",
		},
		{
			name: "revise without count",
			args: []string{"-f", exampleCustomization, "--operation", "ReviseReplica", "--observed-file", exampleWorkload},
			want: "--desired-replica: required for ReviseReplica",
		},
		{
			name:  "stdin twice",
			stdin: "apiVersion: v1\nkind: Pod\n",
			args:  []string{"-f", exampleCustomization, "--operation", "Retain", "--desired-file", "-", "--observed-file", "-"},
			want:  "--observed-file: standard input is already read for --desired-file",
		},
		{
			name:  "stdin for the customization and the object",
			stdin: "apiVersion: v1\nkind: Pod\n",
			args:  []string{"-f", "-", "--operation", "InterpretHealth", "--observed-file", "-"},
			want:  "--observed-file: standard input is already read for -f",
		},
		{
			name:  "object without kind",
			stdin: "metadata: {name: x}\n",
			args:  []string{"--operation", "InterpretHealth", "--observed-file", "-"},
			want:  "--observed-file: <stdin>:1: document 1: want a Kubernetes object with apiVersion and kind",
		},
		{
			name:  "several objects",
			stdin: "apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Pod\n",
			args:  []string{"--operation", "InterpretHealth", "--observed-file", "-"},
			want:  "--observed-file: <stdin>: want one document, got 2 (the second is <stdin>:4: document 2)",
		},
		{
			name: "missing object file",
			args: []string{"--operation", "InterpretHealth", "--observed-file", "nowhere.yaml"},
			want: "--observed-file: nowhere.yaml: no such file or directory",
		},
		{
			name:  "bad status item",
			stdin: "- clusterName: a\n  health: Fine\n",
			args:  []string{"-f", exampleCustomization, "--operation", "AggregateStatus", "--desired-file", exampleWorkload, "--status-file", "-"},
			want:  `--status-file: <stdin>:1: document 1 item 1: health: want Healthy, Unhealthy or Unknown, got "Fine"`,
		},
		{
			name:  "status item with an unknown field",
			stdin: "# members\n- clusterName: a\n  helth: Healthy\n",
			args:  []string{"-f", exampleCustomization, "--operation", "AggregateStatus", "--desired-file", exampleWorkload, "--status-file", "-"},
			want:  `--status-file: <stdin>:1: document 1: unknown field "[0].helth"`,
		},
		{
			name:  "no hook for the kind",
			stdin: "apiVersion: example.io/v1\nkind: Widget\nmetadata: {name: w}\n",
			args:  []string{"-f", exampleCustomization, "--operation", "InterpretReplica", "--observed-file", "-"},
			want:  "InterpretReplica: InterpretReplica hook for example.io/v1, Kind=Widget not found",
		},
		{
			name: "customization does not load",
			args: []string{"-f", broken + ".missing", "--operation", "InterpretReplica", "--observed-file", exampleWorkload},
			want: broken + ".missing: no such file or directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.stdin, append([]string{"interpret"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, 1, r.code)
			assert.Equal(t, tt.want, r.err.Error())
			assert.Empty(t, r.stdout)
		})
	}
}
