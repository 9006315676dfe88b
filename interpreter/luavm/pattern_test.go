package luavm

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// evalString runs expr (a Lua expression over the local s) in a call and
// returns what json.encode makes of the list of its values.
func evalString(t *testing.T, e *Engine, subject, expr string) (string, error) {
	t.Helper()
	s, err := e.Compile("pattern", `local json = require("json")
function ReflectStatus(obj)
  local s = obj.subject
  return {out = json.encode({`+expr+`})}
end`)
	require.NoError(t, err)
	raw, err := e.Hook(s).ReflectStatus(context.Background(), &unstructured.Unstructured{Object: map[string]any{"subject": subject}})
	if err != nil {
		return "", err
	}
	return string(raw.Raw), nil
}

func TestPatterns(t *testing.T) {
	e := New()
	tests := []struct {
		subject, expr, want string
	}{
		{"hello world", `s:find("o w")`, `[5,7]`},
		{"hello world", `s:find("o", 6)`, `[8,8]`},
		{"hello world", `s:find("l+")`, `[3,4]`},
		{"hello world", `s:find("(o)(r)")`, `[8,9,"o","r"]`},
		{"hello world", `s:find(".", 1, true)`, `{}`},
		{"abc", `s:find("()%1")`, `{}`}, // a back reference to a position capture never matches, as in C Lua
		{"abab", `s:find("(ab)%1")`, `[1,4,"ab"]`},
		{"a.b", `s:find(".", 1, true)`, `[2,2]`},
		{"hello", `s:find("l", -2)`, `[4,4]`},
		{"hello", `s:find("")`, `[1,0]`},
		{"hello", `s:find("", 10)`, `[6,5]`},
		{"hello", `s:find("xyz")`, `{}`},
		{"key = value", `s:match("^(%w+)%s*=%s*(%w+)$")`, `["key","value"]`},
		{"  trim me  ", `s:match("^%s*(.-)%s*$")`, `["trim me"]`},
		{"2024-01-31", `s:match("(%d+)-(%d+)-(%d+)")`, `["2024","01","31"]`},
		{"abc", `s:match("()b()")`, `[2,3]`},
		{"abc", `s:match("x")`, `{}`},
		{"f(a(b)c)d", `s:match("%b()")`, `["(a(b)c)"]`},
		{"THE (quick) fox", `s:find("%f[%a]%a+%f[%A]", 5)`, `[6,10]`},
		{"hello hello", `s:match("(h%a+) %1")`, `["hello"]`},
		{"[x]", `s:match("[]x[]+")`, `["[x]"]`},
		{"a-b", `s:match("[a%-]+")`, `["a-"]`},
		{"x9_", `s:match("[^%d]+")`, `["x"]`},
		{"aaa", `s:match("a-b")`, `{}`},
		{"aaab", `s:match("a-b")`, `["aaab"]`},
		{"color colour", `s:gsub("colou?r", "C")`, `["C C",2]`},
		{"$1.50", `s:match("^%$(%d+)%.(%d%d)$")`, `["1","50"]`},
		{"end$", `s:match("d%$$")`, `["d$"]`},
		{"tab\there", `s:match("%c")`, `["\t"]`},
		{"mixed CASE", `s:gsub("%u", "_")`, `["mixed ____",4]`},
		{"a,b;c", `s:gsub("%p", "")`, `["abc",2]`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := evalString(t, e, tt.subject, tt.expr)
			require.NoError(t, err)
			assert.JSONEq(t, `{"out":`+quoteJSON(tt.want)+`}`, got)
		})
	}
}

func quoteJSON(s string) string {
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(append(out, '"'))
}

func TestPatternErrors(t *testing.T) {
	e := New()
	tests := []struct{ expr, want string }{
		{`s:find("[a")`, "malformed pattern (missing ']')"},
		{`s:find("a%")`, "malformed pattern (ends with '%')"},
		{`s:find("(a")`, "unfinished capture"},
		{`s:find("(a))")`, "invalid pattern capture"},
		{`s:find("%1")`, "invalid capture index"},
		{`s:find("%b")`, "unbalanced pattern"},
		{`s:find("%fx")`, "missing '[' after '%f' in pattern"},
		{`s:gsub("a", "%2")`, "invalid capture index"},
		{`s:find(string.rep("(", 33) .. "a" .. string.rep(")", 33))`, "too many captures"},
		{`s:find(string.rep("a*", 300))`, "pattern too complex"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := evalString(t, e, "abc", tt.expr)
			require.Error(t, err)
			assert.Equal(t, "pattern InterpretStatus (line 4): "+tt.want, err.Error())
		})
	}
}

func TestPatternDeadline(t *testing.T) {
	const deadline = 100 * time.Millisecond
	e := New(WithTimeout(deadline))
	// Run to the end, each of these matches takes a minute or more; a
	// matcher that checks the deadline returns within a tick of it. The
	// bound, fifty deadlines, tells the two apart on any machine.
	for _, expr := range []string{
		`string.rep("a", 1000):find(".-.-.-b")`,
		`string.rep("a", 3000):gsub(".-.-b", "")`,
		`string.rep("a", 3000):match("(.*)(.*)(.*)b")`,
	} {
		t.Run(expr, func(t *testing.T) {
			start := time.Now()
			_, err := evalString(t, e, "", expr)
			require.ErrorIs(t, err, ErrTimeout)
			assert.Less(t, time.Since(start), 50*deadline)
		})
	}
}
