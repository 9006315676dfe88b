// Package input decodes the inputs of the binding pipeline, as the
// propagate command takes them: resource templates, ResourceBindings or
// ClusterResourceBindings, Clusters, and OverridePolicies or
// ClusterOverridePolicies.
//
// Reader and Parse read them from YAML or JSON files, directories and
// standard input, as every luainterp command does: a path is a file, a
// directory (every *.yaml, *.yml and *.json file below it, in lexical
// order, hidden entries skipped) or "-" for standard input; a file holds
// YAML documents separated by "---", or a stream of JSON objects; a List
// counts for its items; empty documents are skipped. Integers decode as
// int64, as from a Kubernetes API server.
//
// Template, Binding, Clusters and Policies check and decode the documents.
// Errors name the file, the line the document starts at and the document's
// number, then the object when it is known:
//
//	policies.yaml:12: document 2 (OverridePolicy shop/limits): json: cannot unmarshal string into Go struct field ...
package input
