// Package input reads the inputs of the binding pipeline from files, as
// the propagate command takes them: resource templates, ResourceBindings
// or ClusterResourceBindings, Clusters, and OverridePolicies or
// ClusterOverridePolicies.
//
// A path is a file, a directory (every *.yaml, *.yml and *.json file below
// it, in lexical order, hidden entries skipped) or "-" for standard input.
// A file holds YAML documents separated by "---", or a stream of JSON
// objects; a List counts for its items; empty documents are skipped.
// Integers decode as int64, as from a Kubernetes API server.
//
// Errors name the file, the line the document starts at and the document's
// number, then the object when it is known:
//
//	policies.yaml:12: document 2 (OverridePolicy shop/limits): json: cannot unmarshal string into Go struct field ...
package input
