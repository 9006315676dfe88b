package argocd_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

func ExampleInterpreter_Health() {
	overrides, err := argocd.ParseConfigMap("argocd-cm", map[string]string{
		"resource.customizations.health.example.com_Gadget": `
if obj.status ~= nil and obj.status.phase == "Ready" then
  return {status = "Healthy"}
end
return {status = "Progressing", message = "Waiting for " .. obj.metadata.name}`,
	})
	if err != nil {
		panic(err)
	}
	in := argocd.New(luavm.New(), argocd.NewCustomizations(nil, overrides...))
	gadget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"},
	}}
	h, err := in.Health(context.Background(), gadget)
	fmt.Println(h.Status, h.Message, err)

	reg := interpreter.NewRegistry().Set(interpreter.LayerArgoCD, in)
	healthy, err := reg.InterpretHealth(context.Background(), gadget)
	fmt.Println(healthy, err)
	// Output:
	// Progressing Waiting for g <nil>
	// false <nil>
}

func ExampleInterpreter_RunAction() {
	overrides, err := argocd.ParseConfigMap("argocd-cm", map[string]string{
		"resource.customizations.actions.apps_Deployment": `
discovery.lua: |
  return {scale = {params = {{name = "replicas"}}}}
definitions:
- name: scale
  action.lua: |
    obj.spec.replicas = tonumber(actionParams.replicas)
    return obj
`})
	if err != nil {
		panic(err)
	}
	in := argocd.New(luavm.New(), argocd.NewCustomizations(nil, overrides...))
	deployment := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": int64(1), "template": map[string]any{"metadata": map[string]any{}}},
	}}
	actions, _ := in.Discover(context.Background(), deployment)
	fmt.Println(actions[0].Name, actions[0].Params[0].Name)
	res, err := in.RunAction(context.Background(), deployment, "scale", map[string]string{"replicas": "3"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.List, res.Resources[0].Operation, res.Resources[0].Object.Object["spec"])
	// Output:
	// scale replicas
	// false patch map[replicas:3 template:map[metadata:map[]]]
}
