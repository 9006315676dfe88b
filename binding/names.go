package binding

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/luainterp/luainterp/binding/api"
)

// safeAlphabet is the alphabet Work name suffixes are written in: no
// vowels, no look-alike characters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// WorkName returns the name of the Work for an object of kind kind, named
// name in namespace (empty for cluster-scoped): the name with ":" replaced
// by "." and lower-cased, a dash, and the 32-bit FNV-1a hash of
// "[namespace-]name-kind" (lower-cased) written in decimal and encoded in
// the safe alphabet. It does not depend on the cluster.
func WorkName(kind, name, namespace string) string {
	n := strings.ToLower(strings.ReplaceAll(name, ":", "."))
	s := n + "-" + kind
	if namespace != "" {
		s = namespace + "-" + s
	}
	digits := []byte(strconv.FormatUint(uint64(fnv32a(strings.ToLower(s))), 10))
	for i, c := range digits {
		digits[i] = safeAlphabet[int(c)%len(safeAlphabet)]
	}
	return n + "-" + string(digits)
}

// ExecutionNamespace returns the namespace of the Works for cluster.
func ExecutionNamespace(cluster string) string { return api.ExecutionNamespacePrefix + cluster }

// fnv32a is the 32-bit FNV-1a hash of s, which names Works and breaks
// Apportion's ties.
func fnv32a(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}
