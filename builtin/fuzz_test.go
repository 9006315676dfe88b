package builtin_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
)

// FuzzHandlers runs every operation on fuzzed objects of every built-in
// kind, seeded with the objects of the test cases. No handler may panic
// (the layer turns a panic into an error the fuzzer looks for) or modify
// its input.
func FuzzHandlers(f *testing.F) {
	seeded := map[string]bool{} // many cases share their objects: each is run once
	for _, c := range readCases(f, casePatterns...) {
		for _, obj := range []*unstructured.Unstructured{c.DesiredObj, c.ObservedObj} {
			if obj == nil {
				continue
			}
			data, err := obj.MarshalJSON()
			if err != nil {
				f.Fatal(err)
			}
			if !seeded[string(data)] {
				seeded[string(data)] = true
				f.Add(data, `{"replicas":1,"phase":"Running"}`)
			}
		}
	}
	layer := builtin.New()
	kinds := builtin.Kinds()
	f.Fuzz(func(t *testing.T, data []byte, memberStatus string) {
		obj := map[string]any{}
		if utiljson.Unmarshal(data, &obj) != nil {
			return
		}
		items := []interpreter.AggregatedStatusItem{
			{ClusterName: "m1", Status: &runtime.RawExtension{Raw: []byte(memberStatus)}},
			{ClusterName: "m2"},
		}
		for _, gvk := range kinds {
			u := &unstructured.Unstructured{Object: obj}
			u = u.DeepCopy()
			u.SetGroupVersionKind(gvk)
			before := u.DeepCopy()
			for _, op := range interpreter.Operations() {
				_, err := layer.Interpret(context.Background(), interpreter.Request{
					Operation: op, Object: u, ObservedObject: before.DeepCopy(), DesiredReplicas: 2, StatusItems: items,
				})
				if builtin.IsPanic(err) {
					t.Fatalf("%s %s panicked: %v", gvk.Kind, op, err)
				}
			}
			if !reflect.DeepEqual(before.Object, u.Object) {
				t.Fatalf("%s: an operation modified its input", gvk.Kind)
			}
		}
	})
}

// readCases reads the test cases of the files matching patterns.
func readCases(tb testing.TB, patterns ...string) []*testsuite.Case {
	tb.Helper()
	var cases []*testsuite.Case
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			cs, err := testsuite.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			cases = append(cases, cs...)
		}
	}
	return cases
}

// casePatterns are the files of every test case of the built-in kinds:
// ours and the conformance samples.
var casePatterns = []string{"testdata/cases/*.yaml", "../testdata/conformance/native/*.yaml"}
