package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestWrites: a write is pending until the informer's event for it, and
// one the cache already holds when it is recorded (its event came first)
// is not pending at all.
func TestWrites(t *testing.T) {
	work := func(rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetNamespace("karmada-es-a")
		u.SetName("w")
		u.SetResourceVersion(rv)
		return u
	}
	cached := map[string]string{}
	w := writes{cached: func(key string) string { return cached[key] }}

	w.record(work("7"))
	assert.True(t, w.pending("karmada-es-a/w"), "written, not yet in the cache")
	cached["karmada-es-a/w"] = "7"
	assert.True(t, w.seen(work("7")), "the write's own event")
	assert.False(t, w.pending("karmada-es-a/w"))

	cached["karmada-es-a/w"] = "8"
	w.record(work("8"))
	assert.False(t, w.pending("karmada-es-a/w"), "the event came before the write's response")
	assert.False(t, w.seen(work("8")))
}
