package shard

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Buckets is how many buckets the hash space is cut into: the top byte of
// a binding's hash. Shards are runs of whole buckets, so a shard is a
// hash range the API server can select and a set of label values a Work
// can be selected by, whatever the number of shards.
const Buckets = 256

// MaxShards is the most shards the hash space is cut into: one bucket each.
const MaxShards = Buckets

// BucketLabel is the label the controller writes on a binding's Works:
// the binding's bucket, two hex digits, so that a replica lists and
// watches only the Works of its shards (a label selector) and the label
// stays right when the number of shards changes.
const BucketLabel = "shard.luainterp.io/bucket"

// Field is the field of a binding hashed into its shard: its uid (see
// the package documentation for why not its namespace).
const Field = "object.metadata.uid"

// Hash is the 64-bit FNV-1a hash of a binding's uid: the hash the API
// server's shardRange() takes.
func Hash(uid string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(uid))
	return h.Sum64()
}

// Bucket is the bucket of a binding's uid, the value of its Works'
// BucketLabel.
func Bucket(uid string) string { return fmt.Sprintf("%02x", Hash(uid)>>56) }

// Range is one shard of n: the buckets [First, End) and so the hashes
// [First<<56, End<<56).
type Range struct{ First, End int }

// Ranges cuts the hash space into n shards of whole buckets, as even as
// 256 buckets allow; n is between 1 and MaxShards.
func Ranges(n int) []Range {
	r := make([]Range, n)
	for k := range n {
		r[k] = Range{First: k * Buckets / n, End: (k + 1) * Buckets / n}
	}
	return r
}

// Of is the shard of n that uid falls in.
func Of(uid string, n int) int {
	b := int(Hash(uid) >> 56)
	// The largest k with k*Buckets/n <= b.
	k := (b*n + n - 1) / Buckets
	for k > 0 && k*Buckets/n > b {
		k--
	}
	for k+1 < n && (k+1)*Buckets/n <= b {
		k++
	}
	return k
}

// Set is the set of shards (of N) a replica holds.
type Set struct {
	N      int
	Shards []int // sorted
}

// NewSet returns the set of shards of n, sorted.
func NewSet(n int, shards ...int) Set {
	s := slices.Sorted(slices.Values(shards))
	return Set{N: n, Shards: slices.Compact(s)}
}

// Empty reports whether the set holds no shard.
func (s Set) Empty() bool { return len(s.Shards) == 0 }

// Has reports whether the shard k is in the set.
func (s Set) Has(k int) bool {
	_, ok := slices.BinarySearch(s.Shards, k)
	return ok
}

// Owns reports whether the binding of uid falls in the set.
func (s Set) Owns(uid string) bool { return s.Has(Of(uid, s.N)) }

// String is "2,5 of 8".
func (s Set) String() string {
	parts := make([]string, len(s.Shards))
	for i, k := range s.Shards {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",") + " of " + strconv.Itoa(s.N)
}

// runs are the set's bucket ranges, adjacent shards joined.
func (s Set) runs() []Range {
	all := Ranges(s.N)
	var out []Range
	for _, k := range s.Shards {
		r := all[k]
		if len(out) > 0 && out[len(out)-1].End == r.First {
			out[len(out)-1].End = r.End
			continue
		}
		out = append(out, r)
	}
	return out
}

// Selector is the set as the API server's shardSelector
// (ListOptions.ShardSelector, KEP-5866): shardRange() over the uid, one
// per run of adjacent shards, joined by ||. The bounds are 0x and 16 hex
// digits (the upper bound of the last bucket 0x10000000000000000), as
// the API server compares them as strings of equal length.
func (s Set) Selector() string {
	var parts []string
	for _, r := range s.runs() {
		parts = append(parts, fmt.Sprintf("shardRange(%s, '%s', '%s')", Field, bound(r.First), bound(r.End)))
	}
	return strings.Join(parts, " || ")
}

func bound(bucket int) string {
	if bucket >= Buckets {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", uint64(bucket)<<56)
}

// LabelSelector selects the Works of the set's bindings by BucketLabel.
func (s Set) LabelSelector() string {
	var values []string
	for _, r := range s.runs() {
		for b := r.First; b < r.End; b++ {
			values = append(values, fmt.Sprintf("%02x", b))
		}
	}
	return BucketLabel + " in (" + strings.Join(values, ",") + ")"
}
