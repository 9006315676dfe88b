// Package source keeps the customization and webhook layers of an
// interpreter.Registry in step with the ResourceInterpreterCustomizations
// and ResourceInterpreterWebhookConfigurations of a Kubernetes API server,
// through client-go informers: every change of an object swaps the layer
// it belongs to, while calls in flight finish on the layers they started
// with.
//
// The layers are built with the same rules as from files: customizations
// apply in name order, the first one defining an operation for a kind
// answers it (a warning names the others); webhook configurations are
// consulted in name order. Customizations and configurations read from
// files (WithFiles, WithFileWebhooks) are merged in, and a file wins over
// an API object of the same name.
//
// Each object is loaded on its own: one that does not load (a script that
// does not compile or lacks its function, an unknown field, a webhook
// without a caBundle certificate) is left out while its last good version,
// if any, goes on serving, and the others still apply. It is reported three
// ways: a Warning Event on the object (reason LoadFailed), a log line and
// the luainterp_kube_object_loads_total{outcome="invalid"} metric. A good
// load gets a Normal Event (reason Loaded), except at start: the objects
// of the first list get none (one log line counts them), so that a
// thousand customizations do not make a thousand Events. Warnings go
// through a broadcaster of their own, never queued behind Normal Events.
//
// Start returns once every object of the first list has been loaded (or
// has failed) and the layers are installed: a process that waits for it
// never answers "no hook" for a kind whose customization exists.
//
// Two customizations defining one operation of one kind: the one first in
// name order answers it (Karmada's rule, and every replica's, since it
// depends on the objects only); the other gets a Warning Event (reason
// Conflict) naming the one used, and counts in
// luainterp_kube_objects{state="conflicting"}; Conflicts lists them.
//
// An update of a customization that would drop every operation its last
// good version defined (spec.customizations emptied, its keys set to null)
// is refused as a file caught empty would be (customization.Emptied): the
// last good version goes on serving, with a Warning Event (reason
// EmptyRefused), a WARN log line and outcome="emptied". Deleting the
// object is how its hooks are removed. Files merged in (WithFiles,
// SetFiles) come from a customization.Reloader, which keeps the same rule
// per file.
//
// When the API server goes away, the layers stay as they are and the
// informers reconnect; the changes made meanwhile apply once they are back.
// Start checks the permissions it needs (list and watch on both resources,
// create on events) with SelfSubjectAccessReviews and fails with an
// *AccessError naming each verb and resource that is missing.
package source
