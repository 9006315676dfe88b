// Package status is the pure core of the status loop: what Karmada's
// binding status controller computes when a member cluster reports, and
// what its member side makes of InterpretHealth's answer, without an API
// server. A controller lists, calls, then writes only what changed.
//
// # Getting Started
//
//	loop := status.New(registry) // an interpreter.Interpreter, e.g. *interpreter.Registry
//	res, err := loop.Pass(ctx, status.Input{
//		Binding:  "shop/web-deployment",
//		Resource: rb.Spec.Resource,
//		Current:  storedAggregatedStatus, // the binding's status.aggregatedStatus
//		Works:    works,                  // the Works labelled with the binding's permanent id
//		Template: template,               // the resource template; nil skips its half
//	})
//	if res.StatusChanged { /* update the binding's status.aggregatedStatus */ }
//	if res.TemplateChanged { /* UpdateStatus(res.Template(template)) */ }
//
// # One pass
//
//  1. Assemble: one aggregatedStatus item per Work not being deleted,
//     sorted by cluster name. The cluster is the Work's namespace without
//     karmada-es-; applied only when its Applied condition is True (else
//     the condition's message and health Unknown); an applied Work's
//     status and health are those of the manifest status whose identifier
//     is the binding's resource, health copied as stored.
//  2. Equal: the new items against the stored ones, statuses compared as
//     JSON values, so key order and spacing never cause a write.
//  3. When the interpreter has an AggregateStatus hook for the template's
//     kind: the hook on the template and the items; only .status of its
//     result is used, compared with the template's .status by deep
//     equality.
//
// Health maps InterpretHealth on a member object to the health a Work
// records (no hook: Healthy; an error: Unknown; true or false: Healthy or
// Unhealthy) and the event to record.
//
// # Errors and limits
//
// A Work that names no cluster or has no manifest for the resource fails
// the whole pass with a *WorkError naming the binding, the Work and the
// cluster, wrapping ErrNotExecutionSpace or ErrNoManifest (Karmada's
// texts); the hook's failure is a *TemplateError. Statuses are carried as
// raw JSON and never decoded by the assembly, so a huge or deeply nested
// status costs its size once: only the comparison decodes it, with
// encoding/json's nesting limit, and the hook reads it within the
// interpreter's limits (the Lua engine's depth, memory and time budgets;
// the built-in handlers' typed decoding).
package status
