package scripts_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
)

// FuzzBundledHooks runs every hook of a bundled kind on an object made
// from fuzzed JSON (its status also standing for a member's). A script
// may fail on odd input, but must not panic, hang or change its input.
// The seeds are the objects of every bundled test case.
func FuzzBundledHooks(f *testing.F) {
	layer := scripts.NewLayer(luavm.New(luavm.WithTimeout(time.Second)))
	kinds := layer.Kinds()
	found, err := testsuite.Find(".")
	require.NoError(f, err)
	for _, fd := range found {
		suite, err := testsuite.Load(fd, func(*customization.Set) (interpreter.Interpreter, error) { return layer, nil })
		require.NoError(f, err)
		kind := uint8(slices.Index(kinds, kindOf(fd.Name)))
		for _, c := range suite.Cases {
			for _, obj := range []*unstructured.Unstructured{c.DesiredObj, c.ObservedObj} {
				if obj != nil {
					data, err := json.Marshal(obj.Object)
					require.NoError(f, err)
					f.Add(kind, data)
				}
			}
		}
	}

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		var fields map[string]any
		if json.Unmarshal(data, &fields) != nil || fields == nil {
			return
		}
		gvk := kinds[int(kind)%len(kinds)]
		obj := &unstructured.Unstructured{Object: fields}
		obj.SetGroupVersionKind(gvk)
		pristine := obj.DeepCopy()
		var items []interpreter.AggregatedStatusItem
		if status, ok := fields["status"]; ok {
			raw, _ := json.Marshal(status)
			items = append(items, interpreter.AggregatedStatusItem{ClusterName: "member1", Status: &runtime.RawExtension{Raw: raw}})
		}
		for _, op := range interpreter.Operations() {
			if !layer.HookEnabled(gvk, op) {
				continue
			}
			req := interpreter.Request{Operation: op, Object: obj, ObservedObject: obj.DeepCopy(),
				DesiredReplicas: 2, StatusItems: items}
			_, _ = layer.Interpret(context.Background(), req) // an error is an acceptable answer
			require.Equal(t, pristine, obj, "%s changed its input", op)
		}
	})
}
