package customization

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luainterp/luainterp/interpreter/luavm"
)

func TestCheck(t *testing.T) {
	src := doc(
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: mixed}",
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: Widget}",
		"  customizations:",
		"    replicaResource:",
		"      luaScript: function GetReplicas(obj) return 1 end",
		"    retention:",
		"      luaScript: function Retain(d, o) return d",
		"    healthInterpretation:",
		"      luaScript: function GetReplicas(obj) return 1 end",
		"    statusReflection: {luaScript: 3}",
		"    replicaRevison: {luaScript: x}",
		"---",
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: no-target}",
		"spec:",
		"  customizations:",
		"    retention: {luaScript: 'function Retain(d, o) return d end'}",
		"---",
		"kind: [",
	)
	set, _ := Parse("c.yaml", []byte(src))
	var got []string
	for _, r := range Check(context.Background(), luavm.New(), set) {
		line := fmt.Sprintf("%s %s %s", r.Verdict, r.Position, r.Key)
		if r.Err != nil {
			line += " | " + r.Err.Error()
		}
		got = append(got, line)
	}
	assert.Equal(t, []string{
		`ERROR c.yaml:23: document 3  | c.yaml:23: document 3: invalid YAML: did not find expected node content`,
		`ERROR c.yaml:1: document 1 "mixed" replicaRevison | c.yaml:14: document 1 "mixed": spec.customizations.replicaRevison: unknown field, did you mean "replicaRevision"?`,
		`PASS c.yaml:1: document 1 "mixed" replicaResource`,
		`UNSET c.yaml:1: document 1 "mixed" replicaRevision`,
		`UNSET c.yaml:1: document 1 "mixed" componentResource`,
		`ERROR c.yaml:1: document 1 "mixed" retention | c.yaml:10: document 1 "mixed": spec.customizations.retention.luaScript: Lua line 1: syntax error: the script ends before the "function" of this line has its "end"`,
		`UNSET c.yaml:1: document 1 "mixed" statusAggregation`,
		`ERROR c.yaml:1: document 1 "mixed" statusReflection | c.yaml:13: document 1 "mixed": spec.customizations.statusReflection.luaScript: want a string, got a number` +
			"\n" + `c.yaml:13: document 1 "mixed": spec.customizations.statusReflection.luaScript: empty`,
		`ERROR c.yaml:1: document 1 "mixed" healthInterpretation | c.yaml:12: document 1 "mixed": spec.customizations.healthInterpretation.luaScript: the script does not define the global function InterpretHealth`,
		`UNSET c.yaml:1: document 1 "mixed" dependencyInterpretation`,
		`ERROR c.yaml:16: document 2 "no-target"  | c.yaml:19: document 2 "no-target": spec.target: missing`,
		`UNSET c.yaml:16: document 2 "no-target" replicaResource`,
		`UNSET c.yaml:16: document 2 "no-target" replicaRevision`,
		`UNSET c.yaml:16: document 2 "no-target" componentResource`,
		`PASS c.yaml:16: document 2 "no-target" retention`,
		`UNSET c.yaml:16: document 2 "no-target" statusAggregation`,
		`UNSET c.yaml:16: document 2 "no-target" statusReflection`,
		`UNSET c.yaml:16: document 2 "no-target" healthInterpretation`,
		`UNSET c.yaml:16: document 2 "no-target" dependencyInterpretation`,
	}, got)
}

func TestCheckLint(t *testing.T) {
	src := doc(
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: linted}",
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: Widget}",
		"  customizations:",
		"    replicaResource:",
		"      luaScript: |",
		"        function GetReplicas(obj)",
		"          return obj.spec.replicas, kube.accuratePodRequirements(obj.spec.template)",
		"        end",
		"    healthInterpretation:",
		"      luaScript: |",
		"        local json = require('json')",
		"        function InterpretHealth(obj) return json ~= nil end",
		"    statusReflection:",
		"      luaScript: |",
		"        local kube = require('kube')",
		"        function ReflectStatus(obj) return kube and obj.status end",
	)
	set, err := Parse("c.yaml", []byte(src))
	assert.NoError(t, err)
	got := map[string]string{}
	for _, r := range Check(context.Background(), luavm.New(), set) {
		if r.Verdict != Unset {
			got[r.Key] = r.Verdict.String() + " " + fmt.Sprint(r.Warnings)
		}
	}
	assert.Equal(t, map[string]string{
		"replicaResource": `WARN c.yaml:10: document 1 "linted": spec.customizations.replicaResource.luaScript: Lua line 2: ` +
			`global "kube" is read but never assigned, and the sandbox has none (local kube = require("kube")?)`,
		"healthInterpretation": `WARN c.yaml:14: document 1 "linted": spec.customizations.healthInterpretation.luaScript: Lua line 1: ` +
			`require("json"): Karmada's Lua VM has no module "json", so the script fails there`,
		"statusReflection": "PASS ",
	}, got)
}
