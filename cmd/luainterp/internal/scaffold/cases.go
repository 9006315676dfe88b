package scaffold

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// Case is a test case as a suite's testdata holds it.
type Case struct {
	Name          string                             `json:"name"`
	Description   string                             `json:"description,omitempty"`
	Operation     string                             `json:"operation"`
	DesiredObj    map[string]any                     `json:"desiredObj,omitempty"`
	ObservedObj   map[string]any                     `json:"observedObj,omitempty"`
	StatusItems   []interpreter.AggregatedStatusItem `json:"statusItems,omitempty"`
	InputReplicas int64                              `json:"inputReplicas,omitempty"`
	Output        map[string]any                     `json:"output,omitempty"`
}

// CaseOf is the case of req (its operation's inputs) expecting output.
func CaseOf(name string, req interpreter.Request, output map[string]any) Case {
	c := Case{Name: name, Operation: req.Operation.String(), Output: output}
	switch req.Operation {
	case interpreter.Retain:
		c.DesiredObj, c.ObservedObj = req.Object.Object, req.ObservedObject.Object
	case interpreter.AggregateStatus:
		c.DesiredObj, c.StatusItems = req.Object.Object, req.StatusItems
	case interpreter.ReviseReplica:
		c.ObservedObj, c.InputReplicas = req.Object.Object, req.DesiredReplicas
	default:
		c.ObservedObj = req.Object.Object
	}
	return c
}

// YAML returns the case as YAML with its keys in the order a reader wants
// them: the name and operation first, then the inputs, the output last.
func (c Case) YAML() ([]byte, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	var out []byte
	for _, key := range []string{"name", "description", "operation", "desiredObj", "observedObj", "statusItems", "inputReplicas", "output"} {
		v, ok := fields[key]
		if !ok {
			continue
		}
		doc, err := yaml.JSONToYAML([]byte(`{"` + key + `":` + string(v) + `}`))
		if err != nil {
			return nil, err
		}
		out = append(out, doc...)
	}
	return out, nil
}

// Cases returns one case per rule of the customization (its YAML; file
// names it in errors), for the target's sample object, each with the
// output the rule returns.
func Cases(ctx context.Context, t Target, file string, yaml []byte) ([]Case, error) {
	set, err := customization.Parse(file, yaml)
	if err != nil {
		return nil, err
	}
	layer, err := customization.NewLayer(luavm.New(), set)
	if err != nil {
		return nil, err
	}
	f := detect(t.Schema)
	cases := inputs(sampleObject(t, f, false), sampleObject(t, f, true))
	for i := range cases {
		c := &cases[i]
		op, err := interpreter.ParseOperation(c.Operation)
		if err != nil {
			return nil, err
		}
		if !layer.HookEnabled(t.GVK, op) {
			return nil, fmt.Errorf("%s: the customization has no %s rule", file, op.CustomizationKey())
		}
		req := interpreter.NewRequest(op, object(c.DesiredObj), object(c.ObservedObj))
		req.DesiredReplicas, req.StatusItems = c.InputReplicas, c.StatusItems
		resp, err := layer.Interpret(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
		results, err := compare.Normalize(resp.Results())
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
		c.Output, _ = results.(map[string]any)
	}
	return cases, nil
}

// inputs are the cases of the rules without their outputs: spec is the
// sample without status, full with it.
func inputs(spec, full map[string]any) []Case {
	status, _ := json.Marshal(full["status"])
	item := func(cluster string) interpreter.AggregatedStatusItem {
		return interpreter.AggregatedStatusItem{ClusterName: cluster, Status: &runtime.RawExtension{Raw: status},
			Applied: true, Health: interpreter.ResourceHealthy}
	}
	return []Case{
		{Name: "replicas and requirements of the sample", Operation: interpreter.InterpretReplica.String(), ObservedObj: spec},
		{Name: "revised to three replicas", Operation: interpreter.ReviseReplica.String(), ObservedObj: spec, InputReplicas: 3},
		{Name: "one component", Operation: interpreter.InterpretComponent.String(), ObservedObj: spec},
		{Name: "retains nothing of the member's object", Operation: interpreter.Retain.String(), DesiredObj: spec, ObservedObj: full},
		{Name: "aggregates two members", Operation: interpreter.AggregateStatus.String(), DesiredObj: full,
			StatusItems: []interpreter.AggregatedStatusItem{item("member1"), item("member2")}},
		{Name: "reflects the whole status", Operation: interpreter.InterpretStatus.String(), ObservedObj: full},
		{Name: "healthy when ready", Operation: interpreter.InterpretHealth.String(), ObservedObj: full},
		{Name: "dependencies of the pod template", Operation: interpreter.InterpretDependency.String(), ObservedObj: spec},
	}
}

func object(obj map[string]any) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	return &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
}
