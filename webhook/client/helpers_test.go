package client_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/internal/testcert"
	"github.com/luainterp/luainterp/webhook/server"
)

// serveTLS serves h over HTTPS on loopback with a certificate for
// 127.0.0.1 and hosts, signed by a new CA; it returns the server and the CA.
func serveTLS(t testing.TB, h http.Handler, hosts ...string) (*httptest.Server, *testcert.CA) {
	t.Helper()
	ca := testcert.NewCA(t, "webhook CA")
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = ca.ServingTLS(t, append([]string{"127.0.0.1"}, hosts...)...)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshakes the tests fail on purpose
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, ca
}

// serveInterpreter serves in as a webhook over HTTPS and returns a
// configuration reaching it at path /interpret for the rules given.
func serveInterpreter(t testing.TB, in interpreter.Interpreter, rules ...webhook.RuleWithOperations) *webhook.ResourceInterpreterWebhookConfiguration {
	t.Helper()
	srv, ca := serveTLS(t, server.New(in))
	return configuration("test", "widgets.example.com", srv.URL+"/interpret", ca.PEM, rules...)
}

// configuration returns a configuration of one webhook at url.
func configuration(name, hook, url string, caBundle []byte, rules ...webhook.RuleWithOperations) *webhook.ResourceInterpreterWebhookConfiguration {
	if len(rules) == 0 {
		rules = []webhook.RuleWithOperations{everything}
	}
	c := &webhook.ResourceInterpreterWebhookConfiguration{
		Webhooks: []webhook.ResourceInterpreterWebhook{{
			Name:                       hook,
			Rules:                      rules,
			InterpreterContextVersions: []string{"v1alpha1"},
		}},
	}
	c.APIVersion, c.Kind, c.Name = webhook.APIVersion, webhook.ConfigurationKind, name
	c.Webhooks[0].ClientConfig.URL = &url
	c.Webhooks[0].ClientConfig.CABundle = caBundle
	return c
}

// everything is a rule matching every operation on every kind.
var everything = webhook.RuleWithOperations{Operations: []string{"*"},
	Rule: webhook.Rule{APIGroups: []string{"*"}, APIVersions: []string{"*"}, Kinds: []string{"*"}}}

func newLayer(t testing.TB, configs ...*webhook.ResourceInterpreterWebhookConfiguration) *client.Layer {
	t.Helper()
	l, err := client.New(configs)
	require.NoError(t, err)
	return l
}
