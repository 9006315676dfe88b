package main

import (
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook/server"
)

// widgetWebhooks returns a ResourceInterpreterWebhookConfiguration file
// sending the operations given for example.io Widgets to url.
func widgetWebhooks(t *testing.T, url, operations string) string {
	return writeFile(t, "webhooks.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.luainterp.example.com
    rules:
      - operations: [`+operations+`]
        apiGroups: ["example.io"]
        apiVersions: ["v1"]
        kinds: ["Widget"]
    clientConfig:
      url: `+url+`
    interpreterContextVersions: ["v1alpha1"]
`)
}

const widgetYAML = `apiVersion: example.io/v1
kind: Widget
metadata: {name: w, namespace: ns}
spec: {replicas: 3, cpu: 250m}
status: {phase: Ready, readyReplicas: 3}
`

func TestLayersWebhookConfig(t *testing.T) {
	config := widgetWebhooks(t, "http://127.0.0.1:1/never-called", `"InterpretHealth", "InterpretReplica"`)
	r := run(t, "", "layers", "--api-version", "example.io/v1", "--kind", "Widget", "--webhook-config", config)
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, `example.io/v1 Widget
  InterpretReplica     webhook
  ReviseReplica        -
  InterpretComponent   -
  Retain               -
  AggregateStatus      -
  InterpretStatus      builtin
  InterpretHealth      webhook
  InterpretDependency  -
`, r.stdout)
}

func TestInterpretWebhookConfig(t *testing.T) {
	srv := httptest.NewServer(server.New(interptest.Interpreter{}))
	t.Cleanup(srv.Close)
	config := widgetWebhooks(t, srv.URL, `"*"`)
	object := writeFile(t, "widget.yaml", widgetYAML)
	r := run(t, "", "interpret", "--operation", "InterpretReplica", "--observed-file", object, "--webhook-config", config, "-o", "json")
	require.NoError(t, r.err, r.stderr)
	assert.JSONEq(t, `{"replica": 3, "requires": {"resourceRequest": {"cpu": "250m"}, "namespace": "ns"}}`, r.stdout)

	r = run(t, "", "interpret", "--operation", "InterpretHealth", "--observed-file", object,
		"--webhook-config", widgetWebhooks(t, "http://127.0.0.1:1/", `"*"`))
	assert.Equal(t, 1, r.code)
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "InterpretHealth: webhook widgets.luainterp.example.com: InterpretHealth: calling http://127.0.0.1:1/?timeout=10s: ")
}

func TestInterpretTimeout(t *testing.T) {
	hooks := writeFile(t, "loop.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: loop}
spec:
  target: {apiVersion: example.io/v1, kind: Widget}
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          while true do end
        end
`)
	object := writeFile(t, "widget.yaml", widgetYAML)
	r := run(t, "", "interpret", "-f", hooks, "--operation", "InterpretHealth", "--observed-file", object, "--timeout", "50ms")
	assert.Equal(t, 1, r.code)
	require.ErrorIs(t, r.err, luavm.ErrTimeout)
	// The engine's deadline and the operation's are both 50ms: either says so.
	assert.Regexp(t, `^InterpretHealth: `+regexp.QuoteMeta(hooks)+`:10: document 1 "loop": spec.customizations.healthInterpretation.luaScript: `+
		`Lua line 2: script ran past its deadline(: --timeout)? of 50ms(: context deadline exceeded)?$`, r.err.Error())

	r = run(t, "", "interpret", "-f", hooks, "--operation", "InterpretHealth", "--observed-file", object, "--timeout", "0s")
	assert.EqualError(t, r.err, "--timeout: want a positive duration, got 0s")
}

func TestInterpretStatusItemsNil(t *testing.T) {
	hooks := suites + "/karmada/widget/customizations.yaml"
	object := writeFile(t, "widget.yaml", "apiVersion: example.io/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\n")
	tests := []struct {
		name   string
		status []string // the --status-file flag, or nothing
		want   string
	}{
		{"no --status-file: no status items, nil in Lua", nil, `{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"}}`},
		{"a file holding []: an empty table", []string{"--status-file", writeFile(t, "empty.yaml", "[]\n")},
			`{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"status":{"members":0,"readyReplicas":0}}`},
		{"a file holding null: none", []string{"--status-file", writeFile(t, "null.yaml", "null\n")},
			`{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"interpret", "-f", hooks, "--operation", "AggregateStatus", "--desired-file", object, "-o", "json"}, tt.status...)
			r := run(t, "", args...)
			require.NoError(t, r.err, r.stderr)
			assert.JSONEq(t, `{"aggregatedStatus":`+tt.want+`}`, r.stdout)
		})
	}
}
