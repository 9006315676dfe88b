// Package client is an interpreter layer that asks remote interpreter
// webhooks, as a Karmada control plane does.
//
// New builds a Layer from ResourceInterpreterWebhookConfigurations (read
// with webhook.Loader). The Layer is an interpreter.Interpreter: put it in
// an interpreter.Registry as interpreter.LayerWebhook.
//
//	loaded, err := webhook.Loader{}.Load("webhooks.yaml")
//	...
//	layer, err := client.New(loaded.Configurations)
//	...
//	reg.Set(interpreter.LayerWebhook, layer)
//
// # Which webhook answers
//
// The webhooks of every configuration are consulted in the order of the
// string "<configuration name>/<webhook name>", as Karmada consults them
// (so configuration "a-b" comes before "a", '-' sorting before '/'); the
// first webhook with a rule matching the operation and the object's
// group, version and kind answers ("*" matches any). HookEnabled
// reports whether any does; an operation none answers fails with an error
// matching interpreter.ErrNoHook.
//
// # Reaching a webhook
//
// clientConfig.url is called as it is. clientConfig.service is called at
// https://NAME.NAMESPACE.svc:PORT/PATH (port 443 unless given), which
// resolves only where the cluster's DNS does: inside the cluster, or with
// WithDialContext to send the connection elsewhere (a port-forward).
// clientConfig.caBundle (PEM) is the set of CAs trusted to sign the
// webhook's serving certificate; without it, the system's roots are.
//
// Each call is a POST of a ResourceInterpreterContext with the headers
// Karmada sends (Content-Type application/json, Accept "application/json,
// */*"), its request.replicas always set (0 but for ReviseReplica), bounded by the
// webhook's timeoutSeconds (10 unless set), which is also passed on as a
// "timeout" query parameter. A webhook that cannot be reached, times out,
// answers with an HTTP status other than 200 or with successful=false makes
// the operation fail with an *Error naming the webhook; a failure the webhook
// reported is a *webhook.StatusError inside it. ReviseReplica, Retain and
// AggregateStatus apply the JSON patch of the answer to the object sent.
package client
