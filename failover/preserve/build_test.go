package preserve_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

func rules(paths ...string) []api.StatePreservationRule {
	var out []api.StatePreservationRule
	for i, p := range paths {
		out = append(out, api.StatePreservationRule{AliasLabelName: fmt.Sprintf("l%d", i), JSONPath: p})
	}
	return out
}

// TestBuildValues is spec/failover.md §5 facts 33-35: how each result is
// printed.
func TestBuildValues(t *testing.T) {
	status := `{"replicas":3,"million":1000000,"big":999999,"whole":123456.0,"tiny":1e-7,"half":0.5,"neg":-3,
		"max":9223372036854775807,"e21":1e21,"t":true,"f":false,"nothing":null,"html":"<b>&c",
		"obj":{"z":1,"a":"<x>"},"arr":[1,"two",{"k":[]}],"empty":{},"none":[],
		"conditions":[{"type":"Ready","status":"True"},{"type":"Progressing","status":"False"}],
		"labels":{"app.kubernetes.io/name":"orders","tier":"stream"},"r":3,"g":5}`
	tests := []struct {
		name, path, want string
	}{
		{"integer", "{.replicas}", "3"},
		{"million in exponent form", "{.million}", "1e+06"},
		{"six digits", "{.big}", "999999"},
		{"whole float", "{.whole}", "123456"},
		{"small float", "{.tiny}", "1e-07"},
		{"half", "{.half}", "0.5"},
		{"negative", "{.neg}", "-3"},
		{"int64 max loses precision", "{.max}", "9.223372036854776e+18"},
		{"1e21", "{.e21}", "1e+21"},
		{"true", "{.t}", "true"},
		{"false", "{.f}", "false"},
		{"null", "{.nothing}", "null"},
		{"string unescaped", "{.html}", "<b>&c"},
		{"object as sorted escaped JSON", "{.obj}", `{"a":"\u003cx\u003e","z":1}`},
		{"array as JSON", "{.arr}", `[1,"two",{"k":[]}]`},
		{"empty object and array", "{.empty}{.none}", "{}[]"},
		{"several results joined by a space", "{.conditions[*].type}", "Ready Progressing"},
		{"objects joined by a space", "{.conditions[*]}", `{"status":"True","type":"Ready"} {"status":"False","type":"Progressing"}`},
		{"filter", `{.conditions[?(@.type=="Ready")].status}`, "True"},
		{"filter without match", `{.conditions[?(@.type=="Gone")].status}`, ""},
		{"malformed filter gives nothing", `{.conditions[?(@.type=)]}`, ""},
		{"negative index", "{.conditions[-1].type}", "Progressing"},
		{"slice", "{.conditions[0:1].type}", "Ready"},
		{"range", "{range .conditions[*]}{.type}={.status};{end}", "Ready=True;Progressing=False;"},
		{"root dollar", "{$.replicas}", "3"},
		{"recursive descent", "{..type}", "Ready Progressing"},
		{"escaped dots", `{.labels.app\.kubernetes\.io/name}`, "orders"},
		{"bracket key", "{.labels['tier']}", "stream"},
		{"literal outside braces", ".replicas", ".replicas"},
		{"literal and paths", "r{.r}-g{.g}", "r3-g5"},
		{"empty template", "", ""},
		{"spaces inside braces", "{ .replicas }", "3"},
		{"string literal", `{"text"}`, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels, err := preserve.Build(rules(tt.path), []byte(status))
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"l0": tt.want}, labels)
		})
	}
}

// TestBuildErrors is fact 36: Karmada's messages, on a *RuleError naming
// the rule.
func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name, status string
		paths        []string
		want         string
		index        int
	}{
		{"unclosed action", `{"a":1}`, []string{"{.a}", "{.replicas"}, "unclosed action", 1},
		{"bad bracket", `{}`, []string{"{.a[}"}, "unterminated array", 0},
		{"nested brace", `{}`, []string{"{{.a}}"}, "unrecognized character in action: U+007B '{'", 0},
		{"not JSON", `not json`, []string{"{.a}"}, "failed to unmarshal rawStatus: invalid character 'o' in literal null (expecting 'u')", 0},
		{"parse error before the status is read", `not json`, []string{"{.a"}, "unclosed action", 0},
		{"missing key", `{"a":1}`, []string{"{.a}", "{.b.c}"}, `failed to execute jsonpath "{.b.c}": b is not found`, 1},
		{"null status", `null`, []string{"{.a}"}, `failed to execute jsonpath "{.a}": a is not found`, 0},
		{"array status", `[1]`, []string{"{.a}"}, `failed to execute jsonpath "{.a}": a is not found`, 0},
		{"whole status", `{"a":1}`, []string{"{.}"}, `failed to execute jsonpath "{.}":  is not found`, 0},
		{"index out of range", `{"a":[1,2]}`, []string{"{.a[5]}"}, `failed to execute jsonpath "{.a[5]}": array index out of bounds: index 5, length 2`, 0},
		{"index on an object", `{"a":{"b":1}}`, []string{"{.a[0]}"}, `failed to execute jsonpath "{.a[0]}": map[string]interface {} is not array or slice`, 0},
		{"bracket key with dots", `{"labels":{"app.kubernetes.io/name":"x"}}`, []string{"{.labels['app.kubernetes.io/name']}"}, `failed to execute jsonpath "{.labels['app.kubernetes.io/name']}": app is not found`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels, err := preserve.Build(rules(tt.paths...), []byte(tt.status))
			require.Error(t, err)
			assert.Nil(t, labels)
			assert.Equal(t, tt.want, err.Error())
			var re *preserve.RuleError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.index, re.Index)
			assert.Equal(t, fmt.Sprintf("l%d", tt.index), re.Rule.AliasLabelName)
			assert.Contains(t, re.Describe(), fmt.Sprintf("state preservation rule %d (aliasLabelName \"l%d\"", tt.index, tt.index))
			assert.False(t, errors.Is(err, preserve.ErrLimit))
		})
	}
}

func TestBuildRules(t *testing.T) {
	t.Run("no rules give an empty map without reading the status", func(t *testing.T) {
		labels, err := preserve.Build(nil, []byte("not json"))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{}, labels)
	})
	t.Run("the later of two rules with one alias wins", func(t *testing.T) {
		labels, err := preserve.Build([]api.StatePreservationRule{
			{AliasLabelName: "x", JSONPath: "{.a}"}, {AliasLabelName: "x", JSONPath: "{.b}"},
		}, []byte(`{"a":1,"b":2}`))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"x": "2"}, labels)
	})
	t.Run("duplicate keys in the status: the last wins", func(t *testing.T) {
		labels, err := preserve.Build(rules("{.a}"), []byte(`{"a":1,"a":2}`))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"l0": "2"}, labels)
	})
}

// deep returns a status nested depth levels below "a".
func deep(depth int) string {
	return strings.Repeat(`{"a":`, depth) + `"bottom"` + strings.Repeat("}", depth)
}

// huge returns a status of n items with a name and two numbers each.
func huge(n int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"item-%05d","ready":%d,"total":%d}`, i, i%3, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestBuildHostile is the bounded side: what Karmada evaluates without
// limit is evaluated here too, up to the limits, and what would take the
// process's memory is refused with ErrLimit.
func TestBuildHostile(t *testing.T) {
	big := huge(50_000)
	require.Greater(t, len(big), 1_500_000)
	t.Run("1.5 MB status, one value per item", func(t *testing.T) {
		labels, err := preserve.Build(rules("{.items[*].name}", "{.items[49999].total}"), []byte(big))
		require.NoError(t, err)
		assert.Len(t, labels["l0"], 50_000*len("item-00000")+49_999)
		assert.Equal(t, "49999", labels["l1"])
	})
	t.Run("300 levels deep, 300-segment path", func(t *testing.T) {
		labels, err := preserve.Build(rules("{"+strings.Repeat(".a", 300)+"}"), []byte(deep(300)))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"l0": "bottom"}, labels)
	})
	t.Run("one recursive descent over the huge status passes", func(t *testing.T) {
		labels, err := preserve.Build(rules("{..total}"), []byte(big))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(labels["l0"], "0 1 2 "))
	})
	limitTests := []struct {
		name, status, path string
		limits             preserve.Limits
	}{
		{"nested recursive descents over a deep status", deep(5000), "{..a..a..a}", preserve.Limits{}},
		{"a chain of unions", deep(300), "{" + strings.Repeat("['a','a']", 100) + "}", preserve.Limits{}},
		{"nested ranges of recursive descents", deep(5000), "{range ..}{range ..}{end}{end}", preserve.Limits{}},
		{"a status past its limit", `{"a":"` + strings.Repeat("x", 2000) + `"}`, "{.a}", preserve.Limits{StatusBytes: 1000}},
		{"a value past its limit", big, "{.items}", preserve.Limits{ValueBytes: 100_000}},
	}
	for _, tt := range limitTests {
		t.Run(tt.name, func(t *testing.T) {
			labels, err := preserve.Build(rules("{.x}", tt.path)[1:], []byte(tt.status), preserve.WithLimits(tt.limits))
			require.Error(t, err)
			assert.Nil(t, labels)
			assert.ErrorIs(t, err, preserve.ErrLimit)
			var re *preserve.RuleError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.path, re.Rule.JSONPath)
		})
	}
}

func TestInvalid(t *testing.T) {
	problems := preserve.Invalid(map[string]string{
		"ok.example.io/id": "8f1d2c3b",
		"ckpt":             "1.700000000123e+12",
		"Bad Key!":         "v",
		"long":             strings.Repeat("x", 300),
	})
	var keys []string
	for _, p := range problems {
		keys = append(keys, p.Key)
		assert.NotEmpty(t, p.Reasons)
	}
	assert.Equal(t, []string{"Bad Key!", "ckpt", "long"}, keys)
	assert.Contains(t, problems[1].String(), `preserved label ckpt="1.700000000123e+12" is not a valid label`)
	assert.Empty(t, preserve.Invalid(map[string]string{"a": "b", "c": ""}))
}
