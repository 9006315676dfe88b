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
//
// # Outlier detection
//
// With WithOutlierDetection, each webhook has a circuit breaker (package
// interpreter/breaker, Envoy's outlier detection): after
// consecutive_5xx calls in a row that got no answer (no connection, the
// webhook's timeout) or an HTTP 5xx, the webhook is ejected for
// base_ejection_time, longer at each ejection in a row up to
// max_ejection_time. While it is ejected its calls fail at once, without
// a request, with an *Error naming it around a *breaker.EjectedError
// (errors.Is(err, interpreter.ErrOverloaded) holds: the webhook server
// answers HTTP 503). Then one probe call goes through: its success closes
// the breaker, its failure ejects the webhook again. An HTTP 4xx and an
// answer reporting that the operation failed show the webhook up, and end
// a run of failures; a call whose caller gave up first tells nothing.
package client
