package luavm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
)

// hoistPair is the bundled scripts compiled twice: as written, and with
// the chains they read again hoisted (the engine's default).
type hoistPair struct {
	written, hoisted *scripts.Layer
	kinds            []schema.GroupVersionKind
}

func newHoistPair() hoistPair {
	p := hoistPair{
		written: scripts.NewLayer(luavm.New(luavm.WithTimeout(time.Second), luavm.WithoutHoisting())),
		hoisted: scripts.NewLayer(luavm.New(luavm.WithTimeout(time.Second))),
	}
	p.kinds = p.hoisted.Kinds()
	return p
}

// compare runs every hook of gvk on obj with both layers: they must give
// the same answer or the same error.
func (p hoistPair) compare(t *testing.T, gvk schema.GroupVersionKind, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) {
	t.Helper()
	for _, op := range interpreter.Operations() {
		if !p.hoisted.HookEnabled(gvk, op) {
			continue
		}
		req := func() interpreter.Request {
			return interpreter.Request{Operation: op, Object: obj.DeepCopy(), ObservedObject: obj.DeepCopy(),
				DesiredReplicas: 2, StatusItems: items}
		}
		want, wantErr := p.written.Interpret(context.Background(), req())
		got, gotErr := p.hoisted.Interpret(context.Background(), req())
		if wantErr != nil || gotErr != nil {
			require.Error(t, gotErr, "%s %s: hoisted succeeds where the script as written fails with %v", gvk.Kind, op, wantErr)
			require.Error(t, wantErr, "%s %s: hoisted fails where the script as written succeeds", gvk.Kind, op)
			assert.Equal(t, wantErr.Error(), gotErr.Error(), "%s %s", gvk.Kind, op)
			continue
		}
		assert.Equal(t, want.Results(), got.Results(), "%s %s", gvk.Kind, op)
	}
}

// TestHoistingKeepsBundledAnswers runs every hook of every bundled kind
// on the objects and statuses of every bundled test case, compiled as
// written and hoisted: the answers and errors are the same.
func TestHoistingKeepsBundledAnswers(t *testing.T) {
	p := newHoistPair()
	found, err := testsuite.Find("../../scripts")
	require.NoError(t, err)
	require.NotEmpty(t, found)
	cases := 0
	for _, fd := range found {
		suite, err := testsuite.Load(fd, func(*customization.Set) (interpreter.Interpreter, error) { return p.hoisted, nil })
		require.NoError(t, err)
		for _, c := range suite.Cases {
			for _, obj := range []*unstructured.Unstructured{c.DesiredObj, c.ObservedObj} {
				if obj == nil {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s", fd.Name, c.Name), func(t *testing.T) {
					p.compare(t, obj.GroupVersionKind(), obj, c.StatusItems)
				})
				cases++
			}
		}
	}
	t.Logf("%d objects compared", cases)
}

// FuzzHoisting is TestHoistingKeepsBundledAnswers on objects made from
// fuzzed JSON, their status standing for a member's too.
func FuzzHoisting(f *testing.F) {
	p := newHoistPair()
	found, err := testsuite.Find("../../scripts")
	require.NoError(f, err)
	for _, fd := range found {
		suite, err := testsuite.Load(fd, func(*customization.Set) (interpreter.Interpreter, error) { return p.hoisted, nil })
		require.NoError(f, err)
		for _, c := range suite.Cases {
			if c.DesiredObj == nil {
				continue
			}
			data, err := json.Marshal(c.DesiredObj.Object)
			require.NoError(f, err)
			f.Add(uint8(slices.Index(p.kinds, c.DesiredObj.GroupVersionKind())), data)
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		var fields map[string]any
		if json.Unmarshal(data, &fields) != nil || fields == nil {
			return
		}
		gvk := p.kinds[int(kind)%len(p.kinds)]
		obj := &unstructured.Unstructured{Object: fields}
		obj.SetGroupVersionKind(gvk)
		var items []interpreter.AggregatedStatusItem
		if status, ok := fields["status"]; ok {
			raw, _ := json.Marshal(status)
			items = []interpreter.AggregatedStatusItem{
				{ClusterName: "member1", Status: &runtime.RawExtension{Raw: raw}, Applied: true},
				{ClusterName: "member2", Status: &runtime.RawExtension{Raw: raw}},
			}
		}
		p.compare(t, gvk, obj, items)
	})
}
