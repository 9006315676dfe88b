package webhook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

func TestLoadDirectory(t *testing.T) {
	loaded, err := Loader{}.Load("testdata/configurations")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"testdata/configurations/workloads.yaml:27: document 2: skipped v1 ConfigMap: not a ResourceInterpreterWebhookConfiguration",
	}, loaded.Warnings)

	require.Len(t, loaded.Configurations, 2)
	all, workloads := loaded.Configurations[0], loaded.Configurations[1]
	assert.Equal(t, "all-kinds", all.Name, "configurations are sorted by name")
	assert.Equal(t, "workloads", workloads.Name)

	w := workloads.Webhooks[0]
	assert.Equal(t, "workloads.example.com", w.Name)
	assert.Equal(t, int32(3), w.Timeout())
	assert.Equal(t, "karmada-interpreter-webhook-example", w.ClientConfig.Service.Name)
	assert.True(t, strings.HasPrefix(string(w.ClientConfig.CABundle), "-----BEGIN CERTIFICATE-----"), "caBundle is decoded from base64")
	assert.Equal(t, int32(DefaultTimeoutSeconds), all.Webhooks[0].Timeout())
	assert.Equal(t, "http://127.0.0.1:8443/interpret", *all.Webhooks[0].ClientConfig.URL)
}

func TestLoadStdinAndFiles(t *testing.T) {
	data, err := os.ReadFile("testdata/configurations/all-kinds.json")
	require.NoError(t, err)
	loaded, err := Loader{Stdin: strings.NewReader(string(data))}.Load("testdata/configurations/workloads.yaml", "-")
	require.NoError(t, err)
	require.Len(t, loaded.Configurations, 2)
	assert.Equal(t, "all-kinds", loaded.Configurations[0].Name)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		return path
	}
	valid := `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: one
webhooks:
  - name: one.example.com
    clientConfig:
      url: https://one.example.com
    interpreterContextVersions: ["v1alpha1"]
`
	first, second := write("first.yaml", valid), write("second.yaml", "---\n"+valid)
	badYAML := write("bad.yaml", "apiVersion: [\n")
	scalar := write("scalar.yaml", "just text\n")
	empty := t.TempDir()

	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{
			name:  "every problem of a file",
			paths: []string{"testdata/invalid/problems.yaml"},
			want: `testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].clientConfig.url: Invalid value: "ftp://example.com/x?y=1": the scheme must be https (or http)
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].rules[0].operations[1]: Unsupported value: "Prune": supported values: "*", "InterpretReplica", "ReviseReplica", "InterpretComponent", "Retain", "AggregateStatus", "InterpretStatus", "InterpretHealth", "InterpretDependency"
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if '*' is present, it must be the only value
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].rules[0].apiVersions: Required value
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].timeoutSeconds: Invalid value: 40: must be between 1 and 30 seconds
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[0].interpreterContextVersions: Invalid value: ["v1"]: must include one of v1alpha1
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[1].name: Duplicate value: "short"
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[1].name: Invalid value: "short": should be a domain with at least three segments separated by dots
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[1].clientConfig.service.namespace: Invalid value: "Not_A_Label": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[1].clientConfig.service.path: Invalid value: "no-slash": must start with '/'
testdata/invalid/problems.yaml:1: document 1 "problems": webhooks[1].clientConfig.service.port: Invalid value: 70000: must be between 1 and 65535, inclusive
testdata/invalid/problems.yaml:26: document 2 "typo": unknown field "webhooks[0].clientconfig"`,
		},
		{
			name:  "the same name twice",
			paths: []string{first, second},
			want:  second + `:2: document 1 "one": metadata.name: duplicate of ` + first + `:1: document 1`,
		},
		{name: "no such file", paths: []string{filepath.Join(dir, "nope.yaml")}, want: filepath.Join(dir, "nope.yaml") + ": no such file or directory"},
		{name: "empty directory", paths: []string{empty}, want: empty + ": no *.yaml, *.yml or *.json file in directory"},
		{name: "bad YAML", paths: []string{badYAML}, want: badYAML + ":1: document 1: invalid YAML: did not find expected node content"},
		{name: "not an object", paths: []string{scalar}, want: scalar + ":1: document 1: want an object, got a string"},
		{name: "stdin not offered", paths: []string{"-"}, want: "<stdin>: standard input is not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loaded, err := Loader{}.Load(tt.paths...)
			require.EqualError(t, err, tt.want)
			assert.Nil(t, loaded)
			var ce *ConfigError
			assert.ErrorAs(t, err, &ce)
		})
	}
}

func TestParse(t *testing.T) {
	data, err := os.ReadFile("testdata/configurations/workloads.yaml")
	require.NoError(t, err)
	configs, err := Parse("workloads.yaml", data)
	require.NoError(t, err)
	require.Len(t, configs, 1)
	assert.Equal(t, "workloads", configs[0].Name)
}

func TestRuleMatches(t *testing.T) {
	loaded, err := Loader{}.Load("testdata/configurations/workloads.yaml")
	require.NoError(t, err)
	w := &loaded.Configurations[0].Webhooks[0]
	workload := schema.GroupVersionKind{Group: "workload.example.io", Version: "v1alpha1", Kind: "Workload"}
	tests := []struct {
		name string
		gvk  schema.GroupVersionKind
		op   interpreter.Operation
		want bool
	}{
		{"listed operation and kind", workload, interpreter.InterpretReplica, true},
		{"operation not listed", workload, interpreter.InterpretComponent, false},
		{"another version of a listed kind", schema.GroupVersionKind{Group: "workload.example.io", Version: "v1", Kind: "Workload"}, interpreter.ReviseReplica, false},
		{"wildcard version and kind", schema.GroupVersionKind{Group: "workload.example.io", Version: "v2", Kind: "Other"}, interpreter.InterpretHealth, true},
		{"another group", schema.GroupVersionKind{Group: "apps", Version: "v1alpha1", Kind: "Workload"}, interpreter.InterpretHealth, false},
		{"the core group", schema.GroupVersionKind{Version: "v1alpha1", Kind: "Workload"}, interpreter.InterpretReplica, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.Matches(tt.gvk, tt.op))
		})
	}
	t.Run("the core group by name", func(t *testing.T) {
		rule := RuleWithOperations{Operations: []string{"*"}, Rule: Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Kinds: []string{"Pod"}}}
		assert.True(t, rule.Matches(schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, interpreter.InterpretHealth))
		assert.False(t, rule.Matches(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Pod"}, interpreter.InterpretHealth))
	})
}

func TestValidateClientConfig(t *testing.T) {
	tests := []struct {
		name, clientConfig, want string
	}{
		{"neither url nor service", `{}`, "webhooks[0].clientConfig: Required value: exactly one of url or service is required"},
		{"both", `{"url":"https://a.b","service":{"namespace":"n","name":"s"}}`, "webhooks[0].clientConfig: Forbidden: exactly one of url or service is allowed, not both"},
		{"no host", `{"url":"https:///x"}`, `webhooks[0].clientConfig.url: Invalid value: "https:///x": the host is missing`},
		{"user", `{"url":"https://me@a.b"}`, `webhooks[0].clientConfig.url: Invalid value: "https://me@a.b": user information is not allowed`},
		{"fragment", `{"url":"https://a.b/#x"}`, `webhooks[0].clientConfig.url: Invalid value: "https://a.b/#x": a fragment is not allowed`},
		{"service without name", `{"service":{"namespace":"n"}}`, "webhooks[0].clientConfig.service.name: Required value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterWebhookConfiguration","metadata":{"name":"c"},
				"webhooks":[{"name":"a.example.com","clientConfig":` + tt.clientConfig + `,"interpreterContextVersions":["v1alpha1"]}]}`
			_, err := Parse("c.json", []byte(doc))
			require.EqualError(t, err, `c.json:1: document 1 "c": `+tt.want)
		})
	}
}
