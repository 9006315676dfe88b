package status_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

func ExampleAssemble() {
	works := []api.Work{
		work("member2", "True", "Healthy", `{"readyReplicas":2}`),
		work("member1", "False", "Healthy", `{"readyReplicas":0}`),
	}
	items, err := status.Assemble("shop/web-deployment", web, works)
	if err != nil {
		panic(err)
	}
	for _, item := range items {
		out, _ := json.Marshal(item)
		fmt.Println(string(out))
	}
	// Output:
	// {"clusterName":"member1","appliedMessage":"msg of member1","health":"Unknown"}
	// {"clusterName":"member2","status":{"readyReplicas":2},"applied":true,"health":"Healthy"}
}

func ExampleLoop_Pass() {
	loop := status.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	in := status.Input{
		Binding:  "shop/web-deployment",
		Resource: web,
		Works:    []api.Work{work("member1", "True", "Healthy", memberStatus(2)), work("member2", "True", "Healthy", memberStatus(2))},
		Template: deployment(nil),
	}
	res, err := loop.Pass(context.Background(), in)
	if err != nil {
		panic(err)
	}
	fmt.Println("write the binding's status:", res.StatusChanged)
	fmt.Println("write the template's status:", res.TemplateChanged, res.TemplateStatus)

	in.Current, in.Template = res.AggregatedStatus, res.Template(in.Template)
	res, _ = loop.Pass(context.Background(), in)
	fmt.Println("then:", res.StatusChanged, res.TemplateChanged)
	// Output:
	// write the binding's status: true
	// write the template's status: true map[availableReplicas:4 observedGeneration:1 readyReplicas:4 replicas:4 updatedReplicas:4]
	// then: false false
}
