package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
)

// TestLogLevels: an operation that fails is logged at WARN, for the
// operator; a malformed request at INFO, for its caller.
func TestLogLevels(t *testing.T) {
	var logged bytes.Buffer
	srv := httptest.NewServer(New(interptest.Interpreter{}, WithLogger(slog.New(slog.NewTextHandler(&logged, nil)))))
	defer srv.Close()
	post := func(body string) {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		resp.Body.Close()
	}

	post(strings.ReplaceAll(review("InterpretHealth", widgetObject, ""), `"kind":"Widget"`, `"kind":"Gadget"`))
	assert.Contains(t, logged.String(), `level=WARN msg="interpreter webhook request failure" operation=InterpretHealth`)

	logged.Reset()
	post(`{"apiVersion":`)
	assert.Contains(t, logged.String(), `level=INFO msg="interpreter webhook request rejected"`)
}
