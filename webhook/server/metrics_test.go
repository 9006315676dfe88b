package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
)

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics()
	reg.MustRegister(m)
	srv := httptest.NewServer(NewMux(New(interptest.Interpreter{}, WithMetrics(m)), reg, nil))
	defer srv.Close()

	post(t, srv.URL, "application/json", review("InterpretHealth", widgetObject, ""))
	post(t, srv.URL, "application/json", review("InterpretHealth", widgetObject, ""))
	post(t, srv.URL, "application/json", strings.ReplaceAll(review("InterpretReplica", widgetObject, ""), "Widget", "Broken"))
	post(t, srv.URL, "application/json", `{}`)
	post(t, srv.URL, "application/json", review("ReviseReplica", widgetObject, ""))

	status, body := get(t, srv.URL+MetricsPath)
	require.Equal(t, http.StatusOK, status)
	var lines []string
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, "luainterp_webhook_requests_total") ||
			strings.HasPrefix(line, "luainterp_webhook_request_duration_seconds_count") ||
			strings.HasPrefix(line, "luainterp_webhook_requests_in_flight") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	assert.Equal(t, []string{
		`luainterp_webhook_request_duration_seconds_count{operation="InterpretHealth"} 2`,
		`luainterp_webhook_request_duration_seconds_count{operation="InterpretReplica"} 1`,
		`luainterp_webhook_request_duration_seconds_count{operation="ReviseReplica"} 1`,
		`luainterp_webhook_request_duration_seconds_count{operation="unknown"} 1`,
		`luainterp_webhook_requests_in_flight 0`,
		`luainterp_webhook_requests_total{operation="InterpretHealth",outcome="success"} 2`,
		`luainterp_webhook_requests_total{operation="InterpretReplica",outcome="failure"} 1`,
		`luainterp_webhook_requests_total{operation="ReviseReplica",outcome="rejected"} 1`,
		`luainterp_webhook_requests_total{operation="unknown",outcome="rejected"} 1`,
	}, lines)
}
