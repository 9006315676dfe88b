package luavm

import (
	"context"
	"os"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// The parts of a call, measured apart: converting a whole Deployment each
// way, copying one the script did not touch, and a call that converts next
// to nothing.

func loadDeployment(tb testing.TB) *unstructured.Unstructured {
	data, err := os.ReadFile("testdata/manifests/deployment.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		tb.Fatal(err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(js); err != nil {
		tb.Fatal(err)
	}
	return obj
}

func BenchmarkToLua(b *testing.B) {
	obj := loadDeployment(b)
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := toLua(L, obj.Object); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromLua(b *testing.B) {
	obj := loadDeployment(b)
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	lv, err := toLua(L, obj.Object)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fromLua(lv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUntouched converts back a whole Deployment the script did not
// touch: the copy every object-returning call makes of what it passes on.
// With empty fields (securityContext: {}, as the API server fills in a pod
// template), the empty-table rule looks them up in the reference objects.
func BenchmarkUntouched(b *testing.B) {
	obj := loadDeployment(b)
	withEmpty := obj.DeepCopy()
	podSpec := withEmpty.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	podSpec["securityContext"] = map[string]any{}
	for _, c := range podSpec["containers"].([]any) {
		c.(map[string]any)["securityContext"] = map[string]any{}
	}
	for name, obj := range map[string]*unstructured.Unstructured{"plain": obj, "empty-fields": withEmpty} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d := decoder{refs: newEmptyRefs(obj)}
				if _, _, err := d.goValue(obj.Object, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCallOverhead(b *testing.B) {
	e := New()
	s, err := e.Compile("empty", "function InterpretHealth(obj) return true end")
	if err != nil {
		b.Fatal(err)
	}
	obj := &unstructured.Unstructured{Object: map[string]any{}}
	hook := e.Hook(s)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hook.InterpretHealth(context.Background(), obj); err != nil {
			b.Fatal(err)
		}
	}
}
