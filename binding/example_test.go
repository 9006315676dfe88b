package binding_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

func ExampleWorkName() {
	fmt.Println(binding.WorkName("Deployment", "nginx", "default"))
	fmt.Println(binding.ExecutionNamespace("member1"))
	// Output:
	// nginx-687f7fb96f
	// karmada-es-member1
}

func ExampleApportion() {
	fmt.Println(binding.Apportion(map[string]int64{"member1": 1, "member2": 2, "member3": 3}, 13, ""))
	// Output: map[member1:2 member2:4 member3:7]
}

// read reads the documents of the propagate example's file name.
func read(name string) []input.Document {
	docs, err := (&input.Reader{}).Objects(filepath.Join("../testdata/examples/propagate", name))
	if err != nil {
		panic(err)
	}
	return docs
}

func ExamplePipeline_Run() {
	tmpl, err := input.Template(read("deployment.yaml"))
	if err != nil {
		panic(err)
	}
	rb, err := input.Binding(read("deployment-binding.yaml"))
	if err != nil {
		panic(err)
	}
	clusters, err := input.Clusters(read("clusters.yaml"))
	if err != nil {
		panic(err)
	}
	policies, _, err := input.Policies(read("policies.yaml"))
	if err != nil {
		panic(err)
	}
	set, err := overrides.NewSet(policies)
	if err != nil {
		panic(err)
	}
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	res, err := binding.New(reg).Run(context.Background(), binding.Input{
		Template: tmpl, Binding: rb, Clusters: clusters, Overrides: set,
	})
	if err != nil {
		panic(err)
	}
	for _, w := range res.Works() {
		var manifest struct {
			Spec struct{ Replicas int } `json:"spec"`
		}
		if err := json.Unmarshal(w.Spec.Workload.Manifests[0].Raw, &manifest); err != nil {
			panic(err)
		}
		fmt.Println(w.Namespace, w.Name, manifest.Spec.Replicas)
	}
	fmt.Println(res.Err())
	// Output:
	// karmada-es-eu-ams storefront-d9b447676 3
	// karmada-es-eu-fra storefront-d9b447676 2
	// karmada-es-ap-sgp storefront-d9b447676 1
	// <nil>
}
