package luavm

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// proxyItems are two members' flat statuses and one nested status.
func proxyItems() []interpreter.AggregatedStatusItem {
	return []interpreter.AggregatedStatusItem{
		{ClusterName: "m1", Status: &runtime.RawExtension{Raw: []byte(`{"ready":2,"revision":"r1","paused":false,"gone":null}`)},
			Applied: true, Health: interpreter.ResourceHealthy},
		{ClusterName: "m2", Status: &runtime.RawExtension{Raw: []byte(`{"ready":3,"revision":"r1"}`)}, AppliedMessage: "late"},
		{ClusterName: "m3", Status: &runtime.RawExtension{Raw: []byte(`{"ready":1,"conditions":[{"type":"Ready"}]}`)}},
	}
}

// TestProxies runs each script several times on one state, which keeps
// the proxies' bases from the first call on: whatever a call does to its
// status items, the next sees them as they came, and a result holds the
// items as ordinary tables would give them.
func TestProxies(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"reads", `local s = 0
      for _, item in ipairs(statusItems) do s = s + item.status.ready end
      desiredObj.status = {sum = s, rev = statusItems[1].status.revision, paused = statusItems[1].status.paused,
        gone = statusItems[1].status.gone == nil, missing = statusItems[2].status.nothing == nil,
        health = statusItems[1].health, applied = statusItems[1].applied, message = statusItems[2].appliedMessage,
        cluster = statusItems[3].clusterName, len = #statusItems[1].status}`,
			`{"sum":6,"rev":"r1","paused":false,"gone":true,"missing":true,"health":"Healthy","applied":true,"message":"late","cluster":"m3","len":0}`},
		{"writes and removals", `local first = statusItems[1]
      first.status.ready = first.status.ready + 10
      first.status.revision = nil
      first.status.added = "yes"
      first.health = nil
      statusItems[2].status = nil
      desiredObj.status = {first = first, second = statusItems[2], third = statusItems[3].status.ready}`,
			`{"first":{"clusterName":"m1","applied":true,"status":{"ready":12,"paused":false,"added":"yes"}},` +
				`"second":{"clusterName":"m2","appliedMessage":"late"},"third":1}`},
		{"pairs, next and table.insert", `local keys = {}
      for k in pairs(statusItems[1].status) do keys[#keys + 1] = k end
      for k in pairs(statusItems[2]) do keys[#keys + 1] = "item." .. k end
      table.sort(keys)
      local k = next(statusItems[2].status)
      table.insert(statusItems[3].status.conditions, {type = "Synced"})
      desiredObj.status = {keys = table.concat(keys, ","), next = k ~= nil, items = statusItems}`,
			`{"keys":"item.appliedMessage,item.clusterName,item.status,paused,ready,revision","next":true,"items":[` +
				`{"clusterName":"m1","applied":true,"health":"Healthy","status":{"ready":2,"revision":"r1","paused":false}},` +
				`{"clusterName":"m2","appliedMessage":"late","status":{"ready":3,"revision":"r1"}},` +
				`{"clusterName":"m3","status":{"ready":1,"conditions":[{"type":"Ready"},{"type":"Synced"}]}}]}`},
		{"json.encode", `local json = require("json")
      desiredObj.status = {text = json.encode(statusItems[2])}`,
			`{"text":"{\"appliedMessage\":\"late\",\"clusterName\":\"m2\",\"status\":{\"ready\":3,\"revision\":\"r1\"}}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(WithMaxStates(1))
			s, err := e.Compile(tt.name, "function AggregateStatus(desiredObj, statusItems)\n      "+tt.body+"\n      return desiredObj\n    end")
			require.NoError(t, err)
			for call := range 3 {
				obj := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
				resp, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: proxyItems()})
				require.NoError(t, err, "call %d", call)
				got, err := json.Marshal(resp.Object.Object["status"])
				require.NoError(t, err)
				assert.JSONEq(t, tt.want, string(got), "call %d", call)
			}
		})
	}
}

// TestProxiesPastTheBound aggregates more members than a state keeps
// proxies for, twice with the same statuses and then with new ones.
func TestProxiesPastTheBound(t *testing.T) {
	e := New(WithMaxStates(1))
	s, err := e.Compile("sum", `function AggregateStatus(desiredObj, statusItems)
  local sum, names = 0, 0
  for _, item in ipairs(statusItems) do
    sum = sum + item.status.ready
    if item.clusterName ~= nil then names = names + 1 end
  end
  desiredObj.status = {sum = sum, names = names}
  return desiredObj
end`)
	require.NoError(t, err)
	const n = maxProxies + 500
	items := func(ready int) []interpreter.AggregatedStatusItem {
		list := make([]interpreter.AggregatedStatusItem, n)
		for i := range list {
			raw := fmt.Sprintf(`{"ready":%d,"index":%d}`, ready, i)
			list[i] = interpreter.AggregatedStatusItem{ClusterName: fmt.Sprintf("m%d", i), Status: &runtime.RawExtension{Raw: []byte(raw)}}
		}
		return list
	}
	for _, ready := range []int{1, 1, 2, 3} {
		obj := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
		resp, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: items(ready)})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"sum": int64(ready * n), "names": int64(n)}, resp.Object.Object["status"], "ready %d", ready)
	}
}

// TestKeptItemTables checks which item tables a state hands out again:
// those no call changed, to one item of a call at most, and only with
// the same status text.
func TestKeptItemTables(t *testing.T) {
	flat := func(cluster, status string) interpreter.AggregatedStatusItem {
		return interpreter.AggregatedStatusItem{ClusterName: cluster, Status: &runtime.RawExtension{Raw: []byte(status)}}
	}
	tests := []struct {
		name   string
		body   string // run on every call
		items  []interpreter.AggregatedStatusItem
		reused bool // whether the third call's first item is the second's
		want   string
	}{
		{"read only", `desiredObj.status = {r = statusItems[1].status.ready}`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`)}, true, `{"r":2}`},
		{"a status field set", `local s = statusItems[1].status
      desiredObj.status = {r = s.ready}
      s.ready = 7`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`)}, false, `{"r":2}`},
		{"the status replaced", `desiredObj.status = {r = statusItems[1].status.ready}
      statusItems[1].status = {ready = 9}`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`)}, false, `{"r":2}`},
		{"the status removed", `desiredObj.status = {r = statusItems[1].status.ready}
      statusItems[1].status = nil`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`)}, false, `{"r":2}`},
		{"an item field set", `desiredObj.status = {r = statusItems[1].status.ready}
      statusItems[1].clusterName = "x"`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`)}, false, `{"r":2}`},
		{"the same member twice", `local a, b = statusItems[1], statusItems[2]
      desiredObj.status = {apart = a ~= b and a.status ~= b.status, a = a.status.ready, b = b.status.ready}`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`), flat("m1", `{"ready":2}`)}, true, `{"apart":true,"a":2,"b":2}`},
		{"the same member twice, one changed", `local a, b = statusItems[1], statusItems[2]
      local apart = a ~= b and a.status ~= b.status
      a.status.ready = 5
      desiredObj.status = {apart = apart, a = a.status.ready, b = b.status.ready}`,
			[]interpreter.AggregatedStatusItem{flat("m1", `{"ready":2}`), flat("m1", `{"ready":2}`)}, false, `{"apart":true,"a":5,"b":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(WithMaxStates(1))
			s, err := e.Compile(tt.name, "function AggregateStatus(desiredObj, statusItems)\n      "+tt.body+"\n      return desiredObj\n    end")
			require.NoError(t, err)
			var firsts []*lua.LTable
			for call := range 4 {
				obj := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
				resp, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: tt.items})
				require.NoError(t, err, "call %d", call)
				got, err := json.Marshal(resp.Object.Object["status"])
				require.NoError(t, err)
				assert.JSONEq(t, tt.want, string(got), "call %d", call)
				st := <-e.pool.idle
				e.pool.idle <- st
				key := itemFields{clusterName: tt.items[0].ClusterName}
				firsts = append(firsts, st.lazy.proxies.kept[key].item)
			}
			assert.Equal(t, tt.reused, firsts[2] == firsts[3], "the kept table of the last two calls")
		})
	}
	t.Run("another status text", func(t *testing.T) {
		e := New(WithMaxStates(1))
		s, err := e.Compile("sum", `function AggregateStatus(desiredObj, statusItems)
      desiredObj.status = {r = statusItems[1].status.ready}
      return desiredObj
    end`)
		require.NoError(t, err)
		for call, ready := range []int{1, 1, 1, 2, 2, 3} {
			obj := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
			items := []interpreter.AggregatedStatusItem{flat("m1", fmt.Sprintf(`{"ready":%d}`, ready))}
			resp, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: items})
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"r": int64(ready)}, resp.Object.Object["status"], "call %d", call)
		}
	})
}
