package preserve_test

import (
	"testing"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

// BenchmarkBuild builds three labels (a key, a filter, a wildcard) from a
// status of about 100 KB.
func BenchmarkBuild(b *testing.B) {
	status := []byte(huge(2500))
	if len(status) < 100_000 {
		b.Fatalf("status is %d bytes", len(status))
	}
	rules := []api.StatePreservationRule{
		{AliasLabelName: "last", JSONPath: "{.items[2499].name}"},
		{AliasLabelName: "filtered", JSONPath: `{.items[?(@.name=="item-01234")].total}`},
		{AliasLabelName: "ready", JSONPath: "{.items[*].ready}"},
	}
	b.SetBytes(int64(len(status)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := preserve.Build(rules, status); err != nil {
			b.Fatal(err)
		}
	}
}
