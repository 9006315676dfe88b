package status

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// headSeeds are manifests the scan must read as Unstructured does, or
// leave to it.
var headSeeds = []string{
	`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":2}}`,
	` { "spec" : {"a":"}]\"{[","b":[1,{"c":[]}],"d":-1.5e3,"e":true,"f":null} , "metadata" : { "labels":{"x":"y"}, "name" : "w\u0065b" } , "kind" : "Deployment" , "apiVersion":"apps/v1" } `,
	`{"apiVersion":"apps/v1","kind":"Deployment","kind":"StatefulSet","metadata":{"name":"a","name":"b"}}`,
	`{"apiVersion":"v1","kind":"Service","metadata":null}`,
	`{"apiVersion":"v1","kind":"Service","metadata":{}}`,
	`{"apiVersion":"v1","kind":"List","items":[]}`,
	`{"apiVersion":"v1","kind":"Service","metadata":{"name":7}}`,
	`{"apiVersion":"v1","kind":"Service"} trailing`,
	`{"apiVersion":"v1"}`,
	`{"kind":"Service","spec":{"a":[}}`,
	`[]`,
	``,
}

// TestScanHead: where the scan answers, its answer is Unstructured's.
func TestScanHead(t *testing.T) {
	read := 0
	for _, seed := range headSeeds {
		h, ok := scanHead([]byte(seed))
		if !ok {
			continue
		}
		read++
		u := &unstructured.Unstructured{}
		require.NoError(t, u.UnmarshalJSON([]byte(seed)), seed)
		assert.Equal(t, head{u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()}, h, seed)
	}
	assert.Equal(t, 5, read, "the seeds the scan reads itself")
}

func FuzzScanHead(f *testing.F) {
	for _, seed := range headSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		h, ok := scanHead(raw)
		if !ok {
			return
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(raw); err != nil {
			// The scan does not validate the values it skips.
			return
		}
		if want := (head{u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()}); h != want {
			t.Fatalf("%q: scanned %+v, Unstructured reads %+v", raw, h, want)
		}
	})
}
