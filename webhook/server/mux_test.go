package server

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func TestMux(t *testing.T) {
	var draining atomic.Bool
	ready := func() error {
		if draining.Load() {
			return errors.New("shutting down")
		}
		return nil
	}
	srv := httptest.NewServer(NewMux(New(interptest.Interpreter{}), nil, ready))
	defer srv.Close()

	tests := []struct {
		name, path string
		draining   bool
		wantStatus int
		wantBody   string
	}{
		{"healthz", HealthzPath, false, http.StatusOK, "ok\n"},
		{"readyz", ReadyzPath, false, http.StatusOK, "ok\n"},
		{"readyz while draining", ReadyzPath, true, http.StatusServiceUnavailable, "not ready: shutting down\n"},
		{"healthz while draining", HealthzPath, true, http.StatusOK, "ok\n"},
		{"no metrics without a gatherer", MetricsPath, false, http.StatusMethodNotAllowed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			draining.Store(tt.draining)
			status, body := get(t, srv.URL+tt.path)
			assert.Equal(t, tt.wantStatus, status)
			if tt.wantBody != "" {
				assert.Equal(t, tt.wantBody, body)
			}
		})
	}
	t.Run("the webhook at any other path", func(t *testing.T) {
		status, body := post(t, srv.URL+"/interpreter-workload", "application/json", review("InterpretHealth", widgetObject, ""))
		assert.Equal(t, http.StatusOK, status)
		assert.JSONEq(t, answered(`{"uid":"u-1","successful":true,"healthy":true}`), body)
	})
}
