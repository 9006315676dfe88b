package main

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/klog/v2"
)

// TestKlogFollowsTheLastLog: client-go's log goes to the log of the
// command started last, with the attributes and groups its loggers add.
func TestKlogFollowsTheLastLog(t *testing.T) {
	var first, second bytes.Buffer
	klogTo(slog.NewTextHandler(&first, nil))
	klog.Background().WithName("reflector").WithValues("kind", "Work").Info("listed")
	assert.Contains(t, first.String(), `msg=listed`)
	assert.Contains(t, first.String(), `kind=Work`)

	klogTo(slog.NewJSONHandler(&second, nil))
	klog.Background().WithValues("kind", "Binding").Info("watching")
	assert.NotContains(t, first.String(), "watching")
	assert.Contains(t, second.String(), `"msg":"watching"`)
	assert.Contains(t, second.String(), `"kind":"Binding"`)
}
