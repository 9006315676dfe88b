package luavm_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

func deployment() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "web", "resources": map[string]any{
					"requests": map[string]any{"cpu": "250m", "memory": "256Mi"},
				}},
			}}},
		},
	}}
}

func ExampleEngine_Hook() {
	e := luavm.New()
	s, err := e.Compile("web-replicas", `
local kube = require("kube")
function GetReplicas(obj)
  return obj.spec.replicas, kube.accuratePodRequirements(obj.spec.template)
end`)
	if err != nil {
		panic(err)
	}
	replicas, requires, err := e.Hook(s).GetReplicas(context.Background(), deployment())
	if err != nil {
		panic(err)
	}
	fmt.Println(replicas, requires.ResourceRequest.Cpu(), requires.ResourceRequest.Memory())
	// Output: 3 250m 256Mi
}

func ExampleEngine_Run() {
	e := luavm.New()
	s, err := e.Compile("web-revise", `
function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end`)
	if err != nil {
		panic(err)
	}
	resp, err := e.Run(context.Background(), s, interpreter.Request{
		Operation: interpreter.ReviseReplica, Object: deployment(), DesiredReplicas: 5,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Object.Object["spec"].(map[string]any)["replicas"])
	// Output: 5
}

func ExampleEngine_Check() {
	e := luavm.New()
	s, err := e.Compile("web-health", `function InterpretHealth(obj) return true end`)
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Check(s, interpreter.InterpretHealth))
	fmt.Println(e.Check(s, interpreter.Retain))
	// Output:
	// <nil>
	// web-health Retain: the script does not define the global function Retain
}

func ExampleEngine_Vet() {
	// A validating engine: one state, a short deadline, a script a second.
	e := luavm.New(luavm.WithMaxStates(1), luavm.WithTimeout(250*time.Millisecond), luavm.WithRunRate(1, 1))
	err := e.Vet(context.Background(), "health", "local kube = require('kube')\nfunction InterpretHealth(obj) return true end\n", interpreter.InterpretHealth)
	fmt.Println(err, e.Runs()) // decided from the syntax tree
	err = e.Vet(context.Background(), "replicas", "function GetReplica(obj) return 1 end\n", interpreter.InterpretReplica)
	fmt.Println(err, e.Runs())
	err = e.Vet(context.Background(), "looping", "while true do end\n", interpreter.InterpretHealth)
	fmt.Println(errors.Is(err, luavm.ErrTimeout), e.Runs()) // it had to run
	// Output:
	// <nil> 0
	// replicas InterpretReplica: the script does not define the global function GetReplicas; it defines GetReplica: did you mean GetReplicas? 0
	// true 1
}

func ExampleContextWithPrint() {
	e := luavm.New()
	s, err := e.Compile("chatty", `
function InterpretHealth(obj)
  print("checking", obj.metadata.name)
  return true
end`)
	if err != nil {
		panic(err)
	}
	ctx := luavm.ContextWithPrint(context.Background(), func(line string) { fmt.Println("lua:", line) })
	healthy, err := e.Hook(s).InterpretHealth(ctx, deployment())
	fmt.Println(healthy, err)
	// Output:
	// lua: checking	web
	// true <nil>
}

func ExampleErrTimeout() {
	e := luavm.New(luavm.WithTimeout(20 * time.Millisecond))
	s, err := e.Compile("stuck", `
function InterpretHealth(obj)
  while true do end
end`)
	if err != nil {
		panic(err)
	}
	_, err = e.Hook(s).InterpretHealth(context.Background(), deployment())
	fmt.Println(errors.Is(err, interpreter.ErrTimeout))
	fmt.Println(err)
	// Output:
	// true
	// stuck InterpretHealth (line 3): script ran past its deadline of 20ms
}

func ExampleCoverage() {
	cov := luavm.NewCoverage()
	e := luavm.New(luavm.WithCoverage(cov))
	s, err := e.Compile("health", `function InterpretHealth(obj)
  if obj.status == nil then
    return false
  end
  return true
end`)
	if err != nil {
		panic(err)
	}
	if _, err := e.Hook(s).InterpretHealth(context.Background(), deployment()); err != nil {
		panic(err)
	}
	for _, l := range cov.Lines("health") {
		fmt.Printf("line %d: %d\n", l.Line, l.Hits)
	}
	// Output:
	// line 1: 1
	// line 2: 1
	// line 3: 1
	// line 5: 0
}

// The module fleet, as the script below sees it:
//
//	region(cluster) -> string
//	    The region a member cluster runs in, "" when unknown (a Go
//	    function written against gopher-lua).
//	maxReplicas(namespace) -> number
//	    The most replicas a namespace may ask for (a plain Go function,
//	    bridged by gopher-luar).
func ExampleWithModule() {
	regions := map[string]string{"member1": "eu-west", "member2": "us-east"}
	e := luavm.New(
		luavm.WithPrint(func(line string) { fmt.Println(line) }),
		luavm.WithModule("fleet", map[string]any{
			"region": lua.LGFunction(func(L *lua.LState) int {
				L.Push(lua.LString(regions[L.CheckString(1)]))
				return 1
			}),
			"maxReplicas": func(namespace string) int {
				if namespace == "prod" {
					return 10
				}
				return 2
			},
		}),
	)
	s, err := e.Compile("fleet-replicas", `
local fleet = require("fleet")
function GetReplicas(obj)
  print("member1 is in " .. fleet.region("member1"))
  return math.min(obj.spec.replicas, fleet.maxReplicas(obj.metadata.namespace)), nil
end`)
	if err != nil {
		panic(err)
	}
	replicas, _, err := e.Hook(s).GetReplicas(context.Background(), deployment())
	if err != nil {
		panic(err)
	}
	fmt.Println(replicas)
	// Output:
	// member1 is in eu-west
	// 2
}
