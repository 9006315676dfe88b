package luavm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// outputObject is the object the output tests ask about.
func outputObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec":     map[string]any{"replicas": int64(1)},
	}}
}

// answer runs op of script on outputObject and writes the response as
// JSON, as the webhook server answers with it: what a result costs the
// process is what it takes to write it too.
func answer(e *Engine, op interpreter.Operation, script string) (int, error) {
	s, err := e.Compile(op.String(), script)
	if err != nil {
		return 0, err
	}
	req := interpreter.Request{Operation: op, Object: outputObject(), DesiredReplicas: 2}
	if op == interpreter.Retain {
		req.ObservedObject = outputObject()
	}
	if op == interpreter.AggregateStatus {
		req.StatusItems = []interpreter.AggregatedStatusItem{}
	}
	resp, err := e.Run(context.Background(), s, req)
	if err != nil {
		return 0, err
	}
	text, err := json.Marshal(resp)
	return len(text), err
}

// Each hostile result is small in Lua (one string many times over, or
// one string of many escapes) and large as JSON: tens of MB each, and
// 720 MB from one string through serve, before the output limit.
func TestOutputLimit(t *testing.T) {
	e := New(WithTimeout(20 * time.Second))
	const repeat = `local s, many = string.rep("x", 1000000), {}
  for i = 1, 64 do many["k" .. i] = s end
  `
	tests := []struct {
		name   string
		op     interpreter.Operation
		script string
		lua    uint64 // what the Lua values take, about
		want   string
	}{
		{"a status repeating one string", interpreter.InterpretStatus, `function ReflectStatus(obj)
  ` + repeat + `return many
end`, 1 << 20, "result status: "},
		{"a status of 30 MB of <", interpreter.InterpretStatus, `function ReflectStatus(obj)
  return {text = string.rep("<", 30000000)}
end`, 30e6, "result status: text: more than 3145728 bytes as JSON (the output limit)"},
		{"a status of a 30 MB key", interpreter.InterpretStatus, `function ReflectStatus(obj)
  return {[string.rep("k", 30000000)] = true}
end`, 30e6, "result status: kkkk"},
		{"json.encode of 1 MB of <", interpreter.InterpretHealth, `function InterpretHealth(obj)
  return #require("json").encode(string.rep("<", 1000000)) > 0
end`, 1 << 20, "json.encode: more than 3145728 bytes as JSON (the output limit)"},
		{"json.encode of a table repeating one string", interpreter.InterpretHealth, `function InterpretHealth(obj)
  ` + repeat + `return #require("json").encode(many) > 0
end`, 1 << 20, "json.encode: k"},
		{"a revised object repeating one string", interpreter.ReviseReplica, `function ReviseReplica(obj, replicas)
  ` + repeat + `obj.spec.replicas = replicas
  obj.spec.copies = many
  return obj
end`, 1 << 20, "result revised: spec.copies.k"},
		{"a retained object repeating one string", interpreter.Retain, `function Retain(desired, observed)
  ` + repeat + `desired.metadata.annotations = many
  return desired
end`, 1 << 20, "result retained: metadata.annotations.k"},
		{"an aggregated status repeating one string", interpreter.AggregateStatus, `function AggregateStatus(obj, items)
  ` + repeat + `obj.status = many
  return obj
end`, 1 << 20, "result aggregatedStatus: status.k"},
		{"dependencies repeating one reference", interpreter.InterpretDependency, `function GetDependencies(obj)
  local ref, refs = {apiVersion = "v1", kind = "Secret", namespace = "default", name = string.rep("n", 1000)}, {}
  for i = 1, 50000 do refs[i] = ref end
  return refs
end`, 1 << 20, "result dependencies: ["},
		{"components repeating one requirement", interpreter.InterpretComponent, `function GetComponents(obj)
  local c, list = {name = "c", replicas = 1, replicaRequirements = {nodeClaim = {nodeSelector = {k = string.rep("v", 1000000)}}}}, {}
  for i = 1, 64 do list[i] = c end
  return list
end`, 1 << 20, "result components: ["},
		{"requirements repeating one string", interpreter.InterpretReplica, `function GetReplicas(obj)
  ` + repeat + `return 1, {nodeClaim = {nodeSelector = many}}
end`, 1 << 20, "result requires: nodeClaim.nodeSelector.k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := heapNow()
			sampler := sampleHeap()
			n, err := answer(e, tt.op, tt.script)
			peak := sampler.finish()
			require.ErrorIs(t, err, ErrOutputLimit, "answered %d bytes", n)
			require.ErrorIs(t, err, ErrMemoryLimit)
			assert.Contains(t, err.Error(), tt.want)
			assert.Less(t, len(err.Error()), 2*MaxErrorText, "the error quotes the script's text")
			assert.Less(t, peak-min(peak, before), tt.lua+32<<20, "the heap grew past the Lua values and 32 MiB")
		})
	}
	t.Run("a result just below the limit", func(t *testing.T) {
		n, err := answer(e, interpreter.InterpretStatus, `function ReflectStatus(obj)
  return {text = string.rep("x", 3145728 - 12)}
end`)
		require.NoError(t, err)
		assert.Greater(t, n, 3<<20)
	})
}

// A result's escapes count as they are written: a string of "<" is six
// times its length as JSON.
func TestOutputLimitCountsEscapes(t *testing.T) {
	e := New(WithOutputLimit(60_000))
	tests := []struct {
		name, body string
		fails      bool
	}{
		{"10,000 plain bytes", `string.rep("x", 10000)`, false},
		{"10,000 < written as 60,000 bytes", `string.rep("<", 10000)`, true},
		{"the same string 7 times", `{s, s, s, s, s, s, s}`, true},
		{"the same string 5 times", `{s, s, s, s, s}`, false},
		{"a table 20 times", `{t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t}`, true},
	}
	for _, tt := range tests {
		for _, op := range []interpreter.Operation{interpreter.InterpretStatus, interpreter.AggregateStatus, interpreter.InterpretHealth} {
			t.Run(tt.name+"/"+op.String(), func(t *testing.T) {
				value := `local s = string.rep("y", 10000)
  local t = {a = s, b = {c = 1}}
  local v = ` + tt.body + "\n  "
				var script string
				switch op {
				case interpreter.InterpretStatus:
					script = "function ReflectStatus(obj)\n  " + value + "return {v = v}\nend"
				case interpreter.AggregateStatus:
					script = "function AggregateStatus(obj, items)\n  " + value + "obj.status = {v = v}\n  return obj\nend"
				default:
					script = "function InterpretHealth(obj)\n  " + value + "return #require('json').encode(v) > 0\nend"
				}
				_, err := answer(e, op, script)
				if !tt.fails {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, ErrOutputLimit)
			})
		}
	}
}

// A script's error message is cut in the error, so that neither the
// error nor the log line quoting it holds the script's 100 MB.
func TestErrorMessageCut(t *testing.T) {
	e := New(WithMemoryBudget(1<<30), WithTimeout(20*time.Second))
	before := heapNow()
	_, err := answer(e, interpreter.InterpretHealth, `function InterpretHealth(obj)
  error(string.rep("x", 1e8))
end`)
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrMemoryLimit)
	msg := err.Error()
	assert.Less(t, len(msg), MaxErrorText+200)
	assert.True(t, strings.HasSuffix(msg, "xxx... (100,000,000 bytes, cut to 4 KiB)"), "%.200s", msg[max(0, len(msg)-200):])
	after := heapNow()
	assert.Less(t, after-min(after, before), uint64(16<<20), "the error holds the message it was cut from")
	runtimeKeep(err)

	t.Run("assert and a caught error are cut too", func(t *testing.T) {
		_, err := answer(New(), interpreter.InterpretHealth, `function InterpretHealth(obj)
  local ok, msg = pcall(error, string.rep("x", 1e7))
  assert(#msg < 5000, "caught " .. #msg .. " bytes")
  assert(false, string.rep("y", 1e7))
end`)
		require.Error(t, err)
		assert.True(t, strings.HasSuffix(err.Error(), "yyy... (10,000,000 bytes, cut to 4 KiB)"), "%.200s", err.Error())
	})
	t.Run("a huge key names no more than its start", func(t *testing.T) {
		_, err := answer(New(), interpreter.InterpretStatus, `function ReflectStatus(obj)
  return {[string.rep("k", 1000000)] = {n = 0/0}}
end`)
		require.Error(t, err)
		assert.Equal(t, "InterpretStatus InterpretStatus (line 2): result status: "+strings.Repeat("k", maxKeyText)+"...(1,000,000 bytes).n: number is NaN", err.Error())
	})
}

// runtimeKeep keeps v alive to here, so the heap measured before it holds v.
func runtimeKeep(v any) { keep = v }

var keep any

func TestCutText(t *testing.T) {
	assert.Equal(t, "short", cutText("short"))
	long := strings.Repeat("é", MaxErrorText) // two bytes each: the cut falls between two
	assert.Equal(t, long[:MaxErrorText+cutSlack], cutText(long[:MaxErrorText+cutSlack]))
	cut := cutText(long)
	assert.Equal(t, strings.Repeat("é", MaxErrorText/2)+"... (8,192 bytes, cut to 4 KiB)", cut)
	assert.Equal(t, "1,000", thousands(1000))
	assert.Equal(t, "999", thousands(999))
	assert.Equal(t, "152,000,000", thousands(152_000_000))
}
