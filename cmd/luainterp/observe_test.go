package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeLogFormatJSON: serve --log-format json writes only JSON lines,
// and its metrics say which build runs (luainterp_build_info).
func TestServeLogFormatJSON(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &syncBuffer{}
	cmd := newRootCommand()
	cmd.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--drain", "0s", "--log-format", "json", "-f", exampleCustomization})
	cmd.SetOut(io.Discard)
	cmd.SetErr(stderr)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	var addr string
	require.Eventually(t, func() bool {
		for _, line := range strings.Split(stderr.String(), "\n") {
			var entry struct{ Msg, Address string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "serving interpreter webhook" {
				addr = entry.Address
				return true
			}
		}
		return false
	}, 60*time.Second, 10*time.Millisecond, "serve did not listen:\n%s", stderr)

	resp, err := http.Get("http://" + addr + "/metrics")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^luainterp_build_info\{commit="[^"]*",goversion="go[^"]+",version="[^"]+"\} 1$`, string(body))

	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s")
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		assert.True(t, json.Valid([]byte(line)), "not a JSON line: %s", line)
	}
}
