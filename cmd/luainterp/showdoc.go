package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
)

// ruleDoc is what `interpret --show-doc` says about one rule: the
// arguments its Lua function receives and what it must return.
type ruleDoc struct {
	args    string // the function's parameters, as in its signature
	purpose string
	receive []string
	returns []string
}

// ruleDocs documents each operation's rule, in the order of the operations.
var ruleDocs = map[interpreter.Operation]ruleDoc{
	interpreter.InterpretReplica: {
		args:    "obj",
		purpose: "How many replicas the object asks for, and what each one needs, so the scheduler can divide them among clusters.",
		receive: []string{"obj: the resource template, as a table with its JSON field names."},
		returns: []string{
			"replica: a whole number from 0 to 2147483647.",
			"requires: a ReplicaRequirements table {resourceRequest = {cpu = \"1\", ...}, nodeClaim = {nodeSelector, tolerations, hardNodeAffinity}, namespace, priorityClassName}, or nil;",
			"  kube.accuratePodRequirements(podTemplate) builds one from a pod template.",
		},
	},
	interpreter.ReviseReplica: {
		args:    "obj, replicas",
		purpose: "Set the replica count the scheduler chose for one member cluster.",
		receive: []string{"obj: the resource template.", "replicas: the whole number of replicas for the cluster."},
		returns: []string{"obj: the object with its replicas set; empty tables keep the shape they had in obj."},
	},
	interpreter.InterpretComponent: {
		args:    "obj",
		purpose: "The pod templates of a job made of several of them (a head and workers, a master and workers), scheduled together.",
		receive: []string{"obj: the resource template."},
		returns: []string{"components: an array of {name = ..., replicas = N, replicaRequirements = {...}}, one per pod template."},
	},
	interpreter.Retain: {
		args:    "desired, observed",
		purpose: "Keep the fields a member cluster owns when the control plane updates the object there.",
		receive: []string{"desired: the object the control plane is about to apply.", "observed: the object as the member cluster has it."},
		returns: []string{"obj: desired, with the member's fields copied in from observed."},
	},
	interpreter.AggregateStatus: {
		args:    "desired, statusItems",
		purpose: "Fold the members' statuses into the status of the resource template.",
		receive: []string{
			"desired: the resource template.",
			"statusItems: an array of {clusterName, status, applied, appliedMessage, health}, one per member cluster; status is what InterpretStatus reflected there, health Healthy, Unhealthy or Unknown.",
		},
		returns: []string{"obj: desired with its status set from the items."},
	},
	interpreter.InterpretStatus: {
		args:    "obj",
		purpose: "The part of a member's object that is its status, collected into the Work and aggregated.",
		receive: []string{"obj: the object as the member cluster has it."},
		returns: []string{"status: a table, or nil for none."},
	},
	interpreter.InterpretHealth: {
		args:    "obj",
		purpose: "Whether the object is healthy in a member cluster, for failover and the binding's conditions.",
		receive: []string{"obj: the object as the member cluster has it."},
		returns: []string{"healthy: a boolean."},
	},
	interpreter.InterpretDependency: {
		args:    "obj",
		purpose: "The objects that must be propagated with this one (ConfigMaps, Secrets, ServiceAccounts, PVCs it refers to).",
		receive: []string{"obj: the resource template."},
		returns: []string{
			"dependencies: an array of {apiVersion, kind, namespace, name} or {apiVersion, kind, namespace, labelSelector}, or nil;",
			"  kube.getPodDependencies(podTemplate [, namespace]) lists a pod template's.",
		},
	},
}

// showDoc writes what each rule's function receives and returns: every
// rule, or those of ops.
func showDoc(w io.Writer, ops ...interpreter.Operation) error {
	if len(ops) == 0 {
		ops = interpreter.Operations()
	}
	var b strings.Builder
	for i, op := range ops {
		d := ruleDocs[op]
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (customization key %s)\n", op, op.CustomizationKey())
		fmt.Fprintf(&b, "  %s\n", d.purpose)
		fmt.Fprintf(&b, "  function %s(%s)\n", op.LuaFunction(), d.args)
		b.WriteString("  receives:\n")
		for _, line := range d.receive {
			fmt.Fprintf(&b, "    %s\n", line)
		}
		b.WriteString("  returns:\n")
		for _, line := range d.returns {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	b.WriteString("\nScripts run in fresh globals each call and may require(\"kube\") and require(\"json\");\n" +
		"objects are plain tables with their JSON field names. `luainterp init` writes a skeleton of every rule.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
