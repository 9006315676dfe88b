package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/internal/testcert"
	"github.com/luainterp/luainterp/webhook/server"
)

func objectOf(gvk schema.GroupVersionKind) *unstructured.Unstructured {
	obj := widgetObject()
	obj.SetGroupVersionKind(gvk)
	return obj
}

// lastUID is the uid of the last request an answering handler read.
var lastUID atomic.Value

// answering returns a handler that answers every request with status and
// body, where %s in body stands for the request's uid.
func answering(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review webhook.ResourceInterpreterContext
		if err := json.NewDecoder(r.Body).Decode(&review); err == nil && review.Request != nil {
			lastUID.Store(review.Request.UID)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, strings.ReplaceAll(body, "%s", uid()))
	})
}

func uid() string {
	s, _ := lastUID.Load().(string)
	return s
}

func TestCallErrors(t *testing.T) {
	ok := `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":`
	tests := []struct {
		name    string
		handler http.Handler
		obj     *unstructured.Unstructured
		want    string // the error after "webhook widgets.example.com: InterpretHealth: "; %s is the uid
	}{
		{
			name: "the operation fails", handler: server.New(interptest.Interpreter{}), obj: objectOf(interptest.BrokenKind),
			want: "failed (code 500): InterpretHealth: broken on purpose",
		},
		{
			name: "the webhook has no hook", handler: server.New(interptest.Interpreter{}), obj: objectOf(schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Gadget"}),
			want: "failed (code 501): InterpretHealth: InterpretHealth hook for example.io/v1, Kind=Gadget not found",
		},
		{
			name: "an HTTP error with a failed response", handler: answering(http.StatusBadRequest, ok+`{"uid":"","successful":false,"status":{"code":400,"message":"request.object: missing"}}}`),
			want: "failed (code 400): request.object: missing",
		},
		{
			name: "an HTTP error with text", handler: answering(http.StatusServiceUnavailable, "overloaded, come back later\n"),
			want: "failed (code 503): overloaded, come back later",
		},
		{
			name: "an HTTP error with nothing", handler: answering(http.StatusBadGateway, ""),
			want: "failed (code 502): 502 Bad Gateway",
		},
		{
			name: "not JSON", handler: answering(http.StatusOK, "<html>"),
			want: "the answer of URL: decoding: invalid character '<' looking for beginning of value",
		},
		{
			name: "no response", handler: answering(http.StatusOK, `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext"}`),
			want: "the answer of URL: response: missing",
		},
		{
			name: "another kind", handler: answering(http.StatusOK, `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{}}`),
			want: `the answer of URL: want apiVersion config.karmada.io/v1alpha1 and kind ResourceInterpreterContext, got "admission.k8s.io/v1" and "AdmissionReview"`,
		},
		{
			name: "another uid", handler: answering(http.StatusOK, ok+`{"uid":"stale","successful":true,"healthy":true}}`),
			want: `response.uid: want "%s", got "stale"`,
		},
		{
			name: "no healthy", handler: answering(http.StatusOK, ok+`{"uid":"%s","successful":true}}`),
			want: "response.healthy: missing",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, ca := serveTLS(t, tt.handler)
			url := srv.URL + "/interpret"
			layer := newLayer(t, configuration("c", "widgets.example.com", url, ca.PEM))
			obj := tt.obj
			if obj == nil {
				obj = widgetObject()
			}
			_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), obj)
			require.Error(t, err)
			var ce *client.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, "widgets.example.com", ce.Webhook)
			assert.Equal(t, interpreter.InterpretHealth, ce.Operation)
			want := strings.ReplaceAll(tt.want, "%s", uid())
			assert.Equal(t, "webhook widgets.example.com: InterpretHealth: "+want, strings.ReplaceAll(err.Error(), url+"?timeout=10s", "URL"))
		})
	}
}

func TestCallFailureIsStatusError(t *testing.T) {
	layer := newLayer(t, serveInterpreter(t, interptest.Interpreter{}))
	_, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), objectOf(interptest.BrokenKind))
	var se *webhook.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, int32(http.StatusInternalServerError), se.Code)
	assert.Equal(t, "InterpretReplica: broken on purpose", se.Message)
}

func TestWebhookDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "https://" + ln.Addr().String() + "/interpret"
	require.NoError(t, ln.Close())
	layer := newLayer(t, configuration("c", "widgets.example.com", url, nil))
	_, err = interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), widgetObject())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "webhook widgets.example.com: InterpretHealth: calling "+url+"?timeout=10s: dial tcp "+ln.Addr().String()+": connect: connection refused")
}

func TestWebhookTimeout(t *testing.T) {
	var asked atomic.Value
	release := make(chan struct{})
	defer close(release)
	srv, ca := serveTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.URL.Query().Get("timeout"))
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	config := configuration("c", "widgets.example.com", srv.URL, ca.PEM)
	one := int32(1)
	config.Webhooks[0].TimeoutSeconds = &one
	layer := newLayer(t, config)

	_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), widgetObject())
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "webhook widgets.example.com: InterpretHealth: calling "+srv.URL+"?timeout=1s: no answer within the webhook's timeout of 1s: context deadline exceeded", err.Error())
	assert.Equal(t, "1s", asked.Load(), "the timeout is passed on to the webhook")

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, widgetObject())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "webhook widgets.example.com: InterpretHealth: calling "+srv.URL+"?timeout=1s: context deadline exceeded", err.Error(),
		"the caller's deadline, shorter than the webhook's timeout")
}

func TestNoMatchingWebhook(t *testing.T) {
	only := webhook.RuleWithOperations{Operations: []string{"InterpretHealth"},
		Rule: webhook.Rule{APIGroups: []string{"example.io"}, APIVersions: []string{"v1"}, Kinds: []string{"Widget"}}}
	layer := newLayer(t, serveInterpreter(t, interptest.Interpreter{}, only))
	assert.True(t, layer.HookEnabled(interptest.Kind, interpreter.InterpretHealth))
	assert.False(t, layer.HookEnabled(interptest.Kind, interpreter.InterpretReplica))

	_, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), widgetObject())
	require.ErrorIs(t, err, interpreter.ErrNoHook)
	assert.EqualError(t, err, "InterpretReplica hook for example.io/v1, Kind=Widget not found")
}

func TestTLS(t *testing.T) {
	srv, ca := serveTLS(t, server.New(interptest.Interpreter{}))
	other := testcert.NewCA(t, "another CA")
	tests := []struct {
		name     string
		caBundle []byte
		want     string // a part of the error; "" for none
	}{
		{"the CA that signed the certificate", ca.PEM, ""},
		{"a bundle with that CA among others", append(append([]byte{}, other.PEM...), ca.PEM...), ""},
		{"another CA", other.PEM, "tls: failed to verify certificate: x509: certificate signed by unknown authority"},
		{"no bundle: the system's roots", nil, "tls: failed to verify certificate: x509: certificate signed by unknown authority"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			layer := newLayer(t, configuration("c", "widgets.example.com", srv.URL, tt.caBundle))
			healthy, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), widgetObject())
			if tt.want == "" {
				require.NoError(t, err)
				assert.True(t, healthy)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestServiceWebhook(t *testing.T) {
	srv, ca := serveTLS(t, server.New(interptest.Interpreter{}), "widgets.webhooks.svc")
	config := configuration("c", "widgets.example.com", "", ca.PEM)
	port, path := int32(8443), "/interpret"
	config.Webhooks[0].ClientConfig.URL = nil
	config.Webhooks[0].ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "webhooks", Name: "widgets", Port: &port, Path: &path}
	assert.Equal(t, "https://widgets.webhooks.svc:8443/interpret", client.URL(&config.Webhooks[0]))

	var dialed string
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = addr
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	layer, err := client.New([]*webhook.ResourceInterpreterWebhookConfiguration{config}, client.WithDialContext(dial))
	require.NoError(t, err)
	n, _, err := interpreter.Typed{Interpreter: layer}.GetReplicas(context.Background(), widgetObject())
	require.NoError(t, err)
	assert.Equal(t, int32(3), n)
	assert.Equal(t, "widgets.webhooks.svc:8443", dialed)
}

func TestServiceURLDefaults(t *testing.T) {
	w := &webhook.ResourceInterpreterWebhook{}
	w.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "karmada-system", Name: "interpreter"}
	assert.Equal(t, "https://interpreter.karmada-system.svc:443", client.URL(w))
}

func TestNewErrors(t *testing.T) {
	bad := configuration("c", "widgets.example.com", "https://127.0.0.1:1", []byte("not PEM"))
	_, err := client.New([]*webhook.ResourceInterpreterWebhookConfiguration{bad})
	require.EqualError(t, err, `configuration "c": webhooks[0] "widgets.example.com": clientConfig.caBundle: no PEM certificate`)

	invalid := configuration("c", "short", "https://127.0.0.1:1", nil)
	_, err = client.New([]*webhook.ResourceInterpreterWebhookConfiguration{invalid})
	require.EqualError(t, err, `configuration "c": webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots`)
}

func TestWebhookOrder(t *testing.T) {
	var hits [2]atomic.Int32
	hitting := func(i int) http.Handler {
		h := server.New(interptest.Interpreter{})
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits[i].Add(1); h.ServeHTTP(w, r) })
	}
	first, firstCA := serveTLS(t, hitting(0))
	second, secondCA := serveTLS(t, hitting(1))
	// Given out of order: configurations are consulted by name.
	layer := newLayer(t,
		configuration("b-second", "second.example.com", second.URL, secondCA.PEM),
		configuration("a-first", "first.example.com", first.URL, firstCA.PEM))
	name, ok := layer.Webhook(interptest.Kind, interpreter.InterpretHealth)
	require.True(t, ok)
	assert.Equal(t, "first.example.com", name)
	_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), widgetObject())
	require.NoError(t, err)
	assert.Equal(t, []int32{1, 0}, []int32{hits[0].Load(), hits[1].Load()})
}

func TestWebhookOrderAsKarmada(t *testing.T) {
	names := func(hooks ...string) *webhook.ResourceInterpreterWebhookConfiguration {
		c := configuration("", hooks[0], "https://127.0.0.1:1", nil)
		for _, h := range hooks[1:] {
			w := c.Webhooks[0]
			w.Name = h
			c.Webhooks = append(c.Webhooks, w)
		}
		return c
	}
	named := func(name string, c *webhook.ResourceInterpreterWebhookConfiguration) *webhook.ResourceInterpreterWebhookConfiguration {
		c.Name = name
		return c
	}
	tests := []struct {
		name    string
		configs []*webhook.ResourceInterpreterWebhookConfiguration
		want    string
	}{
		{
			name:    `"a-b/..." sorts before "a/...", '-' before '/'`,
			configs: []*webhook.ResourceInterpreterWebhookConfiguration{named("a", names("z.example.com")), named("a-b", names("y.example.com"))},
			want:    "y.example.com",
		},
		{
			name:    "the webhooks of one configuration by name, not list order",
			configs: []*webhook.ResourceInterpreterWebhookConfiguration{named("c", names("second.example.com", "first.example.com"))},
			want:    "first.example.com",
		},
		{
			name: "by the whole string across configurations",
			configs: []*webhook.ResourceInterpreterWebhookConfiguration{
				named("b", names("a.example.com")), named("a", names("z.example.com", "m.example.com"))},
			want: "m.example.com",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, ok := newLayer(t, tt.configs...).Webhook(interptest.Kind, interpreter.InterpretHealth)
			require.True(t, ok)
			assert.Equal(t, tt.want, name)
		})
	}
}

func TestRequestAsKarmadaSends(t *testing.T) {
	type seen struct {
		accept, contentType string
		request             map[string]any
	}
	requests := make(chan seen, 8)
	h := server.New(interptest.Interpreter{})
	srv, ca := serveTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		var review struct{ Request map[string]any }
		require.NoError(t, json.Unmarshal(body, &review))
		requests <- seen{r.Header.Get("Accept"), r.Header.Get("Content-Type"), review.Request}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	layer := interpreter.Typed{Interpreter: newLayer(t, configuration("c", "widgets.example.com", srv.URL, ca.PEM))}
	ctx := context.Background()
	tests := []struct {
		name         string
		call         func() error
		wantReplicas float64
	}{
		{"InterpretHealth", func() error { _, err := layer.InterpretHealth(ctx, widgetObject()); return err }, 0},
		{"InterpretReplica", func() error { _, _, err := layer.GetReplicas(ctx, widgetObject()); return err }, 0},
		{"ReviseReplica", func() error { _, err := layer.ReviseReplica(ctx, widgetObject(), 5); return err }, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.call())
			got := <-requests
			assert.Equal(t, "application/json, */*", got.accept)
			assert.Equal(t, "application/json", got.contentType)
			require.Contains(t, got.request, "replicas", "request.replicas is always sent")
			assert.Equal(t, tt.wantReplicas, got.request["replicas"])
		})
	}
}

func TestRelayKeepsUpstreamCode(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		response string
		wantCode int32
	}{
		{"an HTTP error", http.StatusBadRequest, `{"uid":"","successful":false,"status":{"code":400,"message":"bad object"}}`, 400},
		{"a failure the upstream reported", http.StatusOK, `{"uid":"UID","successful":false,"status":{"code":422,"message":"cannot"}}`, 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream, ca := serveTLS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var review webhook.ResourceInterpreterContext
				require.NoError(t, json.NewDecoder(r.Body).Decode(&review))
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":`+
					strings.ReplaceAll(tt.response, "UID", review.Request.UID)+`}`)
			}))
			relay := httptest.NewServer(server.New(newLayer(t, configuration("c", "widgets.example.com", upstream.URL, ca.PEM))))
			t.Cleanup(relay.Close)
			body, err := json.Marshal(webhook.NewContext(mustEncode(t, interpreter.Request{Operation: interpreter.InterpretHealth, Object: widgetObject()})))
			require.NoError(t, err)
			resp, err := http.Post(relay.URL, "application/json", bytes.NewReader(body))
			require.NoError(t, err)
			defer resp.Body.Close()
			var answer webhook.ResourceInterpreterContext
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			require.NotNil(t, answer.Response.Status)
			assert.False(t, answer.Response.Successful)
			assert.Equal(t, tt.wantCode, answer.Response.Status.Code, "the upstream's code, not 500: %s", answer.Response.Status.Message)
		})
	}
}

func mustEncode(t *testing.T, req interpreter.Request) *webhook.ResourceInterpreterRequest {
	t.Helper()
	wire, err := webhook.EncodeRequest("relay-1", req)
	require.NoError(t, err)
	return wire
}

func TestRegistryLayer(t *testing.T) {
	only := webhook.RuleWithOperations{Operations: []string{"InterpretReplica"},
		Rule: webhook.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Kinds: []string{"Deployment"}}}
	fixed := fixedReplicas{replicas: 42}
	reg := interpreter.NewRegistry().
		Set(interpreter.LayerWebhook, newLayer(t, serveInterpreter(t, fixed, only))).
		Set(interpreter.LayerBuiltin, fixedReplicas{replicas: 1})
	deployment := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	layer, ok := reg.Which(deployment, interpreter.InterpretReplica)
	require.True(t, ok)
	assert.Equal(t, interpreter.LayerWebhook, layer)

	n, _, err := reg.GetReplicas(context.Background(), objectOf(deployment))
	require.NoError(t, err)
	assert.Equal(t, int32(42), n, "the webhook answers before the built-in layer")
	n, _, err = reg.GetReplicas(context.Background(), objectOf(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}))
	require.NoError(t, err)
	assert.Equal(t, int32(1), n, "kinds the rules do not match fall through")
}

// fixedReplicas answers InterpretReplica for every kind with a fixed count.
type fixedReplicas struct {
	replicas int32
}

func (f fixedReplicas) HookEnabled(_ schema.GroupVersionKind, op interpreter.Operation) bool {
	return op == interpreter.InterpretReplica
}

func (f fixedReplicas) Interpret(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
	return interpreter.Response{Operation: req.Operation, Replicas: f.replicas}, nil
}
