// Package webhook holds Karmada's interpreter webhook protocol
// (config.karmada.io/v1alpha1): the ResourceInterpreterContext a control
// plane POSTs to a webhook and the answer it expects, the
// ResourceInterpreterWebhookConfiguration that says which webhook answers
// which kinds and operations, and the JSON patches that carry objects back.
//
// # Organization
//
// This package is the part both sides share: the wire types (context.go),
// the conversion between them and package interpreter's Request and
// Response (convert.go), JSON patches (patch.go), the server's fast path
// (DecodeRequestBody reads a request body in one pass with a scanner of
// its own, scan.go and decode.go; AppendResponseContext writes an answer
// without reflection, encode.go), and the webhook configurations with
// their loading, validation and rule matching.
//
//   - package webhook/server serves any interpreter.Interpreter as a
//     webhook: an http.Handler with metrics, and the health routes around it;
//   - package webhook/client is an interpreter.Interpreter that calls remote
//     webhooks, to sit in an interpreter.Registry as LayerWebhook.
//
// # The exchange
//
// The caller POSTs a ResourceInterpreterContext with a Request as JSON
// (Content-Type: application/json); the webhook answers HTTP 200 with a
// ResourceInterpreterContext whose Response echoes the request's uid. An
// operation that fails is answered with successful=false and a status
// (message and code). What each operation sends and receives:
//
//	operation            request fields                  response fields
//	InterpretReplica     object                          replicas, replicaRequirements
//	ReviseReplica        object, replicas                patch (JSONPatch)
//	InterpretComponent   object                          components
//	Retain               object (desired), observedObject patch (JSONPatch)
//	AggregateStatus      object, aggregatedStatus        patch (JSONPatch)
//	InterpretStatus      object                          rawStatus
//	InterpretHealth      object                          healthy
//	InterpretDependency  object                          dependencies
//
// A patch is an RFC 6902 JSON patch from the request's object to the
// result; no patch means the object is unchanged.
package webhook
