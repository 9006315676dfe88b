package argocd_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// BenchmarkHealth measures one health call of a typical script (the
// fixture tree's Deployment check, on a healthy Deployment):
//
//   - luainterp: Interpreter.Health, on luavm's pooled states with fresh
//     globals per call, the object converted lazily;
//   - fresh-state: the same script the way Argo CD runs it: a new
//     gopher-lua state with every library open per call, the chunk
//     compiled once and cached, the object converted to tables whole,
//     a one-second deadline, the last result written as JSON and read
//     into the status struct.
//
// The ratio of the two is what docs/argocd.md quotes.
func BenchmarkHealth(b *testing.B) {
	dir := filepath.Join(fixtureTree, "resource_customizations", "apps", "Deployment")
	source, err := os.ReadFile(filepath.Join(dir, "health.lua"))
	if err != nil {
		b.Fatal(err)
	}
	obj := readFixture(b, filepath.Join(dir, "testdata", "healthy.yaml"))
	ctx := context.Background()

	b.Run("luainterp", func(b *testing.B) {
		tree, err := argocd.LoadTree(fixtureTree)
		if err != nil {
			b.Fatal(err)
		}
		in := argocd.New(luavm.New(), argocd.NewCustomizations(tree))
		b.ReportAllocs()
		for b.Loop() {
			h, err := in.Health(ctx, obj)
			if err != nil || h.Status != argocd.Healthy {
				b.Fatal(h, err)
			}
		}
	})

	b.Run("fresh-state", func(b *testing.B) {
		proto := compileChunk(b, string(source))
		b.ReportAllocs()
		for b.Loop() {
			h, err := freshStateHealth(ctx, proto, obj.Object)
			if err != nil || h.Status != argocd.Healthy {
				b.Fatal(h, err)
			}
		}
	})
}

func readFixture(tb testing.TB, path string) *unstructured.Unstructured {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		tb.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

func compileChunk(tb testing.TB, source string) *lua.FunctionProto {
	tb.Helper()
	L := lua.NewState()
	defer L.Close()
	fn, err := L.LoadString(source)
	if err != nil {
		tb.Fatal(err)
	}
	return fn.Proto
}

// freshStateHealth runs a health chunk in a new state, as Argo CD does.
func freshStateHealth(ctx context.Context, proto *lua.FunctionProto, obj map[string]any) (*argocd.HealthStatus, error) {
	L := lua.NewState()
	defer L.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	L.SetContext(ctx)
	L.SetGlobal("obj", tableOf(L, obj))
	L.SetGlobal("actionParams", L.NewTable())
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		return nil, err
	}
	text, err := json.Marshal(valueOf(L.Get(-1)))
	if err != nil {
		return nil, err
	}
	h := &argocd.HealthStatus{}
	if err := json.Unmarshal(text, h); err != nil {
		return &argocd.HealthStatus{}, nil
	}
	return h, nil
}

// tableOf converts a JSON value to Lua whole, nulls dropped.
func tableOf(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			if e != nil {
				t.RawSetString(k, tableOf(L, e))
			}
		}
		return t
	case []any:
		t := L.CreateTable(len(v), 0)
		for _, e := range v {
			if e != nil {
				t.Append(tableOf(L, e))
			}
		}
		return t
	case string:
		return lua.LString(v)
	case bool:
		return lua.LBool(v)
	case float64:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	}
	return lua.LNil
}

// valueOf converts a Lua result to JSON values, an empty table as [].
func valueOf(v lua.LValue) any {
	switch v := v.(type) {
	case *lua.LTable:
		if v.Len() > 0 || v.MaxN() > 0 {
			var out []any
			v.ForEach(func(_, e lua.LValue) { out = append(out, valueOf(e)) })
			return out
		}
		out := map[string]any{}
		v.ForEach(func(k, e lua.LValue) { out[k.String()] = valueOf(e) })
		if len(out) == 0 {
			return []any{}
		}
		return out
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return float64(v)
	case lua.LBool:
		return bool(v)
	}
	return nil
}
