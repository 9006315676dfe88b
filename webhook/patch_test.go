package webhook

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestPatchRoundTrip(t *testing.T) {
	original := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1","b":"2"}},
		"data":{"big":"x"},"spec":{"n":9007199254740993,"list":[1,2,3],"f":1.5}}`)
	tests := []struct {
		name   string
		modify func(obj map[string]any)
		want   string
	}{
		{"nothing", func(map[string]any) {}, ``},
		{"replace a field", func(obj map[string]any) {
			obj["data"].(map[string]any)["big"] = "y"
		}, `[{"op":"replace","path":"/data/big","value":"y"}]`},
		{"remove a label", func(obj map[string]any) {
			delete(obj["metadata"].(map[string]any)["labels"].(map[string]any), "b")
		}, `[{"op":"remove","path":"/metadata/labels/b"}]`},
		{"add a field past 2^53", func(obj map[string]any) {
			obj["status"] = map[string]any{"m": int64(9007199254740995)}
		}, `[{"op":"add","path":"/status","value":{"m":9007199254740995}}]`},
		{"shorten a list", func(obj map[string]any) {
			obj["spec"].(map[string]any)["list"] = []any{int64(1)}
		}, `[{"op":"remove","path":"/spec/list/2"},{"op":"remove","path":"/spec/list/1"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := ApplyPatch(original, nil)
			require.NoError(t, err)
			tt.modify(obj.Object)
			patch, err := CreatePatch(original, obj)
			require.NoError(t, err)
			if tt.want == "" {
				assert.Nil(t, patch)
			} else {
				assert.JSONEq(t, tt.want, string(patch))
			}
			got, err := ApplyPatch(original, patch)
			require.NoError(t, err)
			assert.Equal(t, obj, got, "the patch turns the original into the result")
		})
	}
}

func TestApplyPatchKeepsIntegers(t *testing.T) {
	got, err := ApplyPatch([]byte(`{"spec":{"n":9007199254740993}}`), []byte(`[{"op":"add","path":"/spec/m","value":2}]`))
	require.NoError(t, err)
	assert.Equal(t, &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{"n": int64(9007199254740993), "m": int64(2)},
	}}, got)
}
