package overrides

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
)

// object decodes YAML as the pipeline would (integers as int64).
func object(t testing.TB, doc string) *unstructured.Unstructured {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err)
	obj := &unstructured.Unstructured{}
	require.NoError(t, utiljson.Unmarshal(j, &obj.Object))
	return obj
}

// overriders decodes and compiles the overriders of one rule from YAML.
func overriders(t testing.TB, doc string) *compiledOverriders {
	t.Helper()
	var o api.Overriders
	require.NoError(t, yaml.UnmarshalStrict([]byte(doc), &o))
	return compileOverriders(&o)
}

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, labels: {foo: foo, bar: bar}}
spec:
  template:
    spec:
      initContainers: [{name: init, image: "busybox:1.36"}]
      containers:
      - {name: nginx, image: "nginx:1.25", command: [nginx, -v, -t]}
      - {name: sidecar, image: "envoy:1.30"}
`

func TestApplyOverriders(t *testing.T) {
	tests := []struct {
		name, obj, overriders string
		path                  []string
		want                  any
	}{
		{"image without predicate changes every regular container", deployment,
			`imageOverrider: [{component: Registry, operator: replace, value: mirror.io}]`,
			[]string{"spec", "template", "spec", "containers"},
			[]any{
				map[string]any{"name": "nginx", "image": "mirror.io/nginx:1.25", "command": []any{"nginx", "-v", "-t"}},
				map[string]any{"name": "sidecar", "image": "mirror.io/envoy:1.30"},
			}},
		{"image without predicate leaves init containers", deployment,
			`imageOverrider: [{component: Registry, operator: replace, value: mirror.io}]`,
			[]string{"spec", "template", "spec", "initContainers"},
			[]any{map[string]any{"name": "init", "image": "busybox:1.36"}}},
		{"image predicate reaches an init container", deployment,
			`imageOverrider: [{predicate: {path: /spec/template/spec/initContainers/0/image}, component: Tag, operator: replace, value: "1.37"}]`,
			[]string{"spec", "template", "spec", "initContainers"},
			[]any{map[string]any{"name": "init", "image": "busybox:1.37"}}},
		{"image on a kind without containers does nothing", `{apiVersion: batch/v1, kind: CronJob, metadata: {name: c}, spec: {schedule: x}}`,
			`imageOverrider: [{component: Registry, operator: replace, value: mirror.io}]`,
			[]string{"spec"}, map[string]any{"schedule": "x"}},
		{"command add", deployment,
			`commandOverrider: [{containerName: nginx, operator: add, value: ["&& echo 'hello karmada'"]}]`,
			[]string{"spec", "template", "spec", "containers", "0", "command"},
			[]any{"nginx", "-v", "-t", "&& echo 'hello karmada'"}},
		{"command remove", deployment,
			`commandOverrider: [{containerName: nginx, operator: remove, value: ["-t"]}]`,
			[]string{"spec", "template", "spec", "containers", "0", "command"}, []any{"nginx", "-v"}},
		{"command remove nothing", deployment,
			`commandOverrider: [{containerName: nginx, operator: remove, value: []}]`,
			[]string{"spec", "template", "spec", "containers", "0", "command"}, []any{"nginx", "-v", "-t"}},
		{"args remove on a missing field creates an empty list", deployment,
			`argsOverrider: [{containerName: sidecar, operator: remove, value: [--x]}]`,
			[]string{"spec", "template", "spec", "containers", "1", "args"}, []any{}},
		{"args add on a missing field", deployment,
			`argsOverrider: [{containerName: sidecar, operator: add, value: [--x]}]`,
			[]string{"spec", "template", "spec", "containers", "1", "args"}, []any{"--x"}},
		{"labels replace only existing keys", deployment,
			`labelsOverrider: [{operator: replace, value: {foo: exist, non-exist: non-exist}}]`,
			[]string{"metadata", "labels"}, map[string]any{"foo": "exist", "bar": "bar"}},
		{"labels remove only existing keys", deployment,
			`labelsOverrider: [{operator: remove, value: {foo: foo, non-exist: non-exist}}]`,
			[]string{"metadata", "labels"}, map[string]any{"bar": "bar"}},
		{"labels add", deployment,
			`labelsOverrider: [{operator: add, value: {test: test}}]`,
			[]string{"metadata", "labels"}, map[string]any{"foo": "foo", "bar": "bar", "test": "test"}},
		{"annotations add creates the map", deployment,
			`annotationsOverrider: [{operator: add, value: {test2: test2}}]`,
			[]string{"metadata", "annotations"}, map[string]any{"test2": "test2"}},
		{"annotations add nothing creates no map", deployment,
			`annotationsOverrider: [{operator: add, value: {}}]`,
			[]string{"metadata", "annotations"}, nil},
		{"field yaml", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {test.yaml: "\nkey: \n  key1: value\n"}}`,
			`fieldOverrider: [{fieldPath: /data/test.yaml, yaml: [{subPath: /key/key1, operator: replace, value: updated_value}]}]`,
			[]string{"data", "test.yaml"}, "key:\n  key1: updated_value\n"},
		{"field yaml is read as YAML 1.1", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a.yaml: "b: yes\nc: 1.50\n'n': x\n"}}`,
			`fieldOverrider: [{fieldPath: /data/a.yaml, yaml: [{subPath: /d, operator: add, value: "123"}]}]`,
			[]string{"data", "a.yaml"}, "b: true\nc: 1.5\nd: \"123\"\n\"n\": x\n"},
		{"field json keeps key order and number text", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {test.json: '{"z": 1.50, "key":{"key1":"value"}}'}}`,
			`fieldOverrider: [{fieldPath: /data/test.json, json: [{subPath: /key/key1, operator: replace, value: "<updated>"}]}]`,
			[]string{"data", "test.json"}, `{"z":1.50,"key":{"key1":"\u003cupdated\u003e"}}`},
		{"field without operations becomes empty", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a~b: "x: 1"}}`,
			`fieldOverrider: [{fieldPath: /data/a~0b}]`,
			[]string{"data", "a~b"}, ""},
		{"plaintext patch", deployment,
			`plaintext: [{path: /spec/replicas, operator: add, value: 10}, {path: /metadata/labels/foo, operator: remove}]`,
			[]string{"spec", "replicas"}, int64(10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, tt.obj)
			require.Nil(t, applyOverriders(obj, overriders(t, tt.overriders)))
			at, err := walk(obj.Object, tt.path)
			if tt.want == nil {
				assert.Error(t, err, "want no field at %v", tt.path)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, at.get())
		})
	}
}

func TestApplyOverridersErrors(t *testing.T) {
	tests := []struct {
		name, obj, overriders, want string
	}{
		{"predicate path into a kind without containers", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`,
			`imageOverrider: [{predicate: {path: /spec/template/spec/containers/0/image}, component: Tag, operator: replace, value: x}]`,
			`.imageOverrider[0]: predicate path /spec/template/spec/containers/0/image: object has no key "spec"`},
		{"predicate path without leading slash", deployment,
			`imageOverrider: [{predicate: {path: spec/x}, component: Tag, operator: replace, value: x}]`,
			`.imageOverrider[0]: predicate path "spec/x" does not start with /`},
		{"predicate path with a trailing slash, read without it, written with it", deployment,
			`imageOverrider: [{predicate: {path: /spec/template/spec/initContainers/0/image/}, component: Tag, operator: replace, value: x}]`,
			`.imageOverrider[0]: replace operation does not apply: doc is missing path: /spec/template/spec/initContainers/0/image/: missing value`},
		{"uppercase image", `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: a, image: "Nginx:1"}]}}`,
			`imageOverrider: [{component: Tag, operator: replace, value: "2"}]`,
			`.imageOverrider[0]: spec.containers[0].image: parse image "Nginx:1": repository name must be lowercase`},
		{"containers not a list", `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: x}}`,
			`commandOverrider: [{containerName: a, operator: add, value: [x]}]`,
			`.commandOverrider[0]: spec.containers: want a list, got a string`},
		{"field path missing", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {}}`,
			`fieldOverrider: [{fieldPath: /data/x, json: [{subPath: /a, operator: remove}]}]`,
			`.fieldOverrider[0]: field path /data/x: object has no key "data/x"`},
		{"field not a string", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {x: 1}}`,
			`fieldOverrider: [{fieldPath: /data/x, json: [{subPath: /a, operator: remove}]}]`,
			`.fieldOverrider[0]: field path /data/x: want a string, got a number`},
		{"image an object", `{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: a, image: {name: nginx}}]}}`,
			`imageOverrider: [{component: Tag, operator: replace, value: "2"}]`,
			`.imageOverrider[0]: spec.containers[0].image: want a string, got an object`},
		{"metadata null", `{apiVersion: v1, kind: Pod, metadata: null}`,
			`labelsOverrider: [{operator: add, value: {a: b}}]`,
			`.labelsOverrider[0]: metadata: want an object, got null`},
		{"plaintext add under missing annotations", deployment,
			`plaintext: [{path: /metadata/annotations/foo, operator: add, value: bar}]`,
			`.plaintext: add operation does not apply: doc is missing path: "/metadata/annotations/foo": missing value`},
		{"plaintext with an invalid operation", deployment,
			`plaintext: [{path: /spec/replicas, operator: set, value: 1}]`,
			`.plaintext: invalid operation {"op":"set","path":"/spec/replicas","value":1}: unsupported operation`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := applyOverriders(object(t, tt.obj), overriders(t, tt.overriders))
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.field+": "+err.err.Error())
		})
	}
}

// TestImagePredicateConcurrent applies one rule's prepared image predicate
// from many goroutines (run with -race), each writing its own image.
func TestImagePredicateConcurrent(t *testing.T) {
	o := overriders(t, `imageOverrider: [{predicate: {path: /spec/template/spec/containers/0/image}, component: Tag, operator: add, value: "-debug"}]`)
	done := make(chan any)
	for i := range 8 {
		go func() {
			obj := object(t, deployment)
			containers := obj.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
			containers[0].(map[string]any)["image"] = fmt.Sprintf("nginx:1.%d", i)
			if err := applyOverriders(obj, o); err != nil {
				done <- err.err
				return
			}
			done <- containers[0].(map[string]any)["image"]
		}()
	}
	var got []any
	for range 8 {
		got = append(got, <-done)
	}
	want := []any{}
	for i := range 8 {
		want = append(want, fmt.Sprintf("nginx:1.%d-debug", i))
	}
	assert.ElementsMatch(t, want, got)
}
