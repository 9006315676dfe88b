// Package scaffold writes the start of a customization for one kind: a
// ResourceInterpreterCustomization with a working, commented script for
// every key of spec.customizations, and test cases for it in Karmada's
// format, built from a sample object. `luainterp init` writes both into a
// suite folder; `luainterp interpret --edit` starts from the
// customization.
//
// # The sample object
//
// Without a schema, the sample is shaped like a Deployment: spec.replicas
// and a pod template in spec.template. With a CRD's openAPIV3Schema (see
// ReadCRD), it holds what the schema requires, spec.replicas when the
// schema has it, the first pod template under spec (an object whose spec
// has containers) with one container asking for resources, and, when the
// schema has one, a status with its required fields, its integer fields,
// observedGeneration and a Ready condition (with the fields its item
// schema declares). Values come from the schema's default, example or
// enum where it gives one; strings match its pattern and format. A
// required object or list is never empty (an empty Lua table is no
// object, so it would not survive a script), a cluster-scoped kind has no
// namespace, and the sample holds only the fields the schema declares, so
// that the cases validate against the CRD.
//
// # The scripts
//
// The scripts use only the kube module and Lua's standard libraries, so
// they run on Karmada unchanged. They read the replica count and the pod
// template where the schema has them, reflect the whole status, add up the
// members' integer status fields, judge health by observedGeneration and a
// Ready condition, and list the pod template's dependencies. Each case's
// expected output is what the scripts return on its input, so the suite
// passes as written and shows every result in full: a starting point to
// change along with the scripts.
package scaffold
