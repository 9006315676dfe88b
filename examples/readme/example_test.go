package readme_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"path/filepath"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/server"
)

// documents reads the propagate example's file name.
func documents(name string) []input.Document {
	docs, err := (&input.Reader{}).Objects(filepath.Join("../../testdata/examples/propagate", name))
	if err != nil {
		panic(err)
	}
	return docs
}

// Example is the README's library section, snippet by snippet; the lines
// between the snippets give them their inputs and print what they made.
func Example() {
	ctx := context.Background()
	obj, _ := input.Template(documents("deployment.yaml"))
	tmpl := obj
	rb, _ := input.Binding(documents("deployment-binding.yaml"))
	clusters, _ := input.Clusters(documents("clusters.yaml"))
	policies, _, _ := input.Policies(documents("policies.yaml"))

	reg := interpreter.NewRegistry().
		Set(interpreter.LayerBuiltin, builtin.New())
	replicas, requirements, err := reg.GetReplicas(ctx, obj)
	layer, found := reg.Which(obj.GroupVersionKind(), interpreter.InterpretReplica) // builtin true
	fmt.Println(replicas, requirements.ResourceRequest.Cpu(), err, layer, found)

	hooks, err := customization.Load("customizations/")       // files, dirs; hooks.Warnings
	custom, err := customization.NewLayer(luavm.New(), hooks) // compiles and checks every script
	reg.Set(interpreter.LayerCustomization, custom)
	layer, found = reg.Which(obj.GroupVersionKind(), interpreter.InterpretHealth)
	fmt.Println(err, layer, found)

	logged := interpreter.Chain(reg, func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			resp, err := next.Interpret(ctx, req)
			log.Println(req.Operation, err)
			return resp, err
		})
	})

	loaded, err := webhook.Loader{}.Load("webhooks/") // ResourceInterpreterWebhookConfigurations
	remote, err := client.New(loaded.Configurations)  // webhook/client: rules, url or service, caBundle, timeout
	reg.Set(interpreter.LayerWebhook, remote)

	http.Handle("/", server.New(logged)) // webhook/server: a Karmada interpreter webhook
	fmt.Println(err, len(loaded.Configurations))

	set, err := overrides.NewSet(policies) // []api.OverridePolicy, both kinds
	res, err := binding.New(reg).Run(ctx, binding.Input{
		Template: tmpl, Binding: rb, Clusters: clusters, Overrides: set,
	})
	works := res.Works() // one *api.Work per cluster that succeeded
	err = res.Err()      // the clusters that failed, each a *binding.ClusterError
	fmt.Println(len(works), err)
	// Output:
	// 6 250m <nil> builtin true
	// <nil> customization true
	// <nil> 1
	// 3 <nil>
}
