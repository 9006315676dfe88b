package shard

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestShare checks that the shares of the live members add up to N, the
// first members by identity taking one more, and that a replica not yet
// in the list counts itself.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		live []string
		want map[string]int
	}{
		{"alone", 8, []string{"a"}, map[string]int{"a": 8}},
		{"even", 8, []string{"a", "b"}, map[string]int{"a": 4, "b": 4}},
		{"uneven", 8, []string{"a", "b", "c"}, map[string]int{"a": 3, "b": 3, "c": 2}},
		{"more members than shards", 2, []string{"a", "b", "c"}, map[string]int{"a": 1, "b": 1, "c": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total := 0
			for id, want := range tc.want {
				assert.Equal(t, want, share(tc.n, tc.live, id), id)
				total += share(tc.n, tc.live, id)
			}
			assert.Equal(t, tc.n, total)
		})
	}
	assert.Equal(t, 4, share(8, []string{"a"}, "b"), "a replica not yet listed counts itself")
}
