package main

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// TestSampleWebhookRequests: examples/webhook-requests holds one
// ResourceInterpreterContext per operation, and serve answers each of them
// successfully from its bundled scripts, as `curl --data @FILE` would send it.
func TestSampleWebhookRequests(t *testing.T) {
	s := startServe(t)
	for _, op := range interpreter.Operations() {
		t.Run(op.String(), func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("../../examples/webhook-requests", op.String()+".json"))
			require.NoError(t, err)
			got := postReview(t, http.DefaultClient, "http://"+s.addr+"/interpret", string(body))
			assert.Equal(t, true, got["successful"], "%v", got)
		})
	}
}
