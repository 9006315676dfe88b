package builtin_test

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// TestSharedCopiesOnlyWrittenPaths checks that a Shared ReviseReplica or
// Retain copies the maps on the paths it writes and nothing else: every
// other map and list of the result at a path where the request's object
// has one is the request's, and the request's object is left as it was.
// copied lists, by dotted path ("" for the root), the result's maps and
// lists that are not the request's, whether clones on a written path or
// values written.
func TestSharedCopiesOnlyWrittenPaths(t *testing.T) {
	deploy := readObject(t, "testdata/bench/deployment.yaml")
	member := deploy.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(member.Object, int64(9), "spec", "replicas"))
	tests := []struct {
		name     string
		req      interpreter.Request
		copied   []string
		expected map[string]any // fields of the result, by dotted path
	}{
		{
			name:     "Deployment ReviseReplica",
			req:      interpreter.Request{Operation: interpreter.ReviseReplica, Object: deploy, DesiredReplicas: 3},
			copied:   []string{"", "spec"},
			expected: map[string]any{"spec.replicas": int64(3)},
		},
		{
			name:     "Deployment Retain",
			req:      interpreter.Request{Operation: interpreter.Retain, Object: deploy, ObservedObject: member},
			copied:   []string{"", "spec"},
			expected: map[string]any{"spec.replicas": int64(9)},
		},
		{
			name: "Job ReviseReplica",
			req: interpreter.Request{Operation: interpreter.ReviseReplica, DesiredReplicas: 2, Object: manifestObject(t, `
apiVersion: batch/v1
kind: Job
metadata: {name: j, labels: {app: j}}
spec: {parallelism: 5, template: {spec: {containers: [{name: c, image: i}]}}}`)},
			copied:   []string{"", "spec"},
			expected: map[string]any{"spec.parallelism": int64(2)},
		},
		{
			name: "Job Retain",
			req: interpreter.Request{Operation: interpreter.Retain, Object: manifestObject(t, `
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  selector: {matchLabels: {app: j}}
  template: {metadata: {labels: {app: j}}, spec: {containers: [{name: c, image: i}]}}`), ObservedObject: manifestObject(t, `
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  selector: {matchLabels: {app: j, controller-uid: u}}
  template: {metadata: {labels: {app: j, controller-uid: u}}}`)},
			copied: []string{"", "spec", "spec.selector", "spec.selector.matchLabels", "spec.template",
				"spec.template.metadata", "spec.template.metadata.labels"},
			expected: map[string]any{"spec.selector.matchLabels.controller-uid": "u", "spec.template.metadata.labels.controller-uid": "u"},
		},
		{
			name: "Service Retain writes spec twice",
			req: interpreter.Request{Operation: interpreter.Retain, Object: manifestObject(t, `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {type: NodePort, ports: [{port: 80}], selector: {app: s}}`), ObservedObject: manifestObject(t, `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {healthCheckNodePort: 30001, clusterIP: 10.0.0.1}`)},
			copied:   []string{"", "spec"},
			expected: map[string]any{"spec.healthCheckNodePort": int64(30001), "spec.clusterIP": "10.0.0.1"},
		},
		{
			name: "ServiceAccount Retain",
			req: interpreter.Request{Operation: interpreter.Retain, Object: manifestObject(t, `
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, labels: {app: sa}}
secrets: [{name: a}]`), ObservedObject: manifestObject(t, `
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa}
secrets: [{name: b}]`)},
			copied: []string{"", "secrets", "secrets.0", "secrets.1"},
		},
		{
			name: "PersistentVolume Retain",
			req: interpreter.Request{Operation: interpreter.Retain, Object: manifestObject(t, `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce]}`), ObservedObject: manifestObject(t, `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec: {claimRef: {name: c, namespace: n}}`)},
			copied:   []string{"", "spec", "spec.claimRef"},
			expected: map[string]any{"spec.claimRef.name": "c"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Shared = true
			before := objects(req)
			resp, err := builtin.New().Interpret(context.Background(), req)
			require.NoError(t, err)
			assert.Equal(t, before, objects(req), "the request's objects were modified")
			assert.Equal(t, tt.copied, notShared(req.Object.Object, resp.Object.Object))
			for path, want := range tt.expected {
				got, found, err := unstructured.NestedFieldNoCopy(resp.Object.Object, strings.Split(path, ".")...)
				require.NoError(t, err)
				require.True(t, found, path)
				assert.Equal(t, want, got, path)
			}
			plain, err := builtin.New().Interpret(context.Background(), tt.req)
			require.NoError(t, err)
			assert.Equal(t, plain, resp, "the shared result differs from the plain one")
		})
	}
}

// manifestObject decodes a YAML manifest.
func manifestObject(t *testing.T, manifest string) *unstructured.Unstructured {
	return parseObject(t, "inline", []byte(manifest))
}

// notShared returns, sorted, the dotted paths of the maps and non-empty
// lists of out that are not those at the same path of in.
func notShared(in, out map[string]any) []string {
	var paths []string
	var walk func(path string, in, out any)
	walk = func(path string, in, out any) {
		at := func(key string) string { return strings.TrimPrefix(path+"."+key, ".") }
		switch o := out.(type) {
		case map[string]any:
			i, _ := in.(map[string]any)
			if !sameContainer(i, o) {
				paths = append(paths, path)
			}
			for k, v := range o {
				walk(at(k), i[k], v)
			}
		case []any:
			i, _ := in.([]any)
			if len(o) > 0 && !sameContainer(i, o) {
				paths = append(paths, path)
			}
			for n, v := range o {
				var iv any
				if n < len(i) {
					iv = i[n]
				}
				walk(at(strconv.Itoa(n)), iv, v)
			}
		}
	}
	walk("", in, out)
	slices.Sort(paths)
	return paths
}

// sameContainer reports whether a and b are the same map, or lists with
// the same first element.
func sameContainer(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Kind() == vb.Kind() && va.Pointer() != 0 && va.Pointer() == vb.Pointer()
}
