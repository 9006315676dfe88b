package shard_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
	apisharding "k8s.io/apiserver/pkg/sharding"

	"github.com/luainterp/luainterp/kube/shard"
)

// TestRanges checks that the shards of n cover the buckets once each, in
// order, and that Of agrees with them.
func TestRanges(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 7, 8, 100, 255, 256} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := shard.Ranges(n)
			require.Len(t, r, n)
			assert.Equal(t, 0, r[0].First)
			assert.Equal(t, shard.Buckets, r[n-1].End)
			for k := range n {
				assert.Less(t, r[k].First, r[k].End, "shard %d is empty", k)
				if k > 0 {
					assert.Equal(t, r[k-1].End, r[k].First)
				}
			}
			for range 2000 {
				uid := string(uuid.NewUUID())
				k := shard.Of(uid, n)
				b := int(shard.Hash(uid) >> 56)
				require.True(t, r[k].First <= b && b < r[k].End, "uid %s, bucket %d, shard %d %v", uid, b, k, r[k])
			}
		})
	}
}

// TestSetMatchesTheAPIServer checks a set's shardSelector against
// apimachinery's own matcher (what the API server runs), its label
// selector against its bucket labels, and both against Owns.
func TestSetMatchesTheAPIServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  shard.Set
		want string
	}{
		{"half of 2", shard.NewSet(2, 1), "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')"},
		{"two runs of 8", shard.NewSet(8, 0, 1, 5),
			"shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || " +
				"shardRange(object.metadata.uid, '0xa000000000000000', '0xc000000000000000')"},
		{"one of 3", shard.NewSet(3, 1), "shardRange(object.metadata.uid, '0x5500000000000000', '0xaa00000000000000')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.set.Selector())
			sel, err := apisharding.Parse(tc.set.Selector())
			require.NoError(t, err)
			assert.Equal(t, tc.set.Selector(), sel.String(), "the API server reads it otherwise")
			labelSel, err := labels.Parse(tc.set.LabelSelector())
			require.NoError(t, err)
			owned := 0
			for range 3000 {
				uid := uuid.NewUUID()
				obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{UID: types.UID(uid)}}
				matches, err := sel.Matches(obj)
				require.NoError(t, err)
				owns := tc.set.Owns(string(uid))
				require.Equal(t, owns, matches, "uid %s", uid)
				require.Equal(t, owns, labelSel.Matches(labels.Set{shard.BucketLabel: shard.Bucket(string(uid))}), "uid %s", uid)
				if owns {
					owned++
				}
			}
			t.Logf("%s: %d of 3000 owned", tc.set, owned)
		})
	}
}
