package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/admission"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/leader"
	"github.com/luainterp/luainterp/kube/source"
	"github.com/luainterp/luainterp/webhook/server"
)

// registeredMetrics returns the names of every metric serve and the
// controller register, read from their collectors' descriptions: the
// same constructors the commands call, every option that adds metrics on.
func registeredMetrics(t *testing.T) map[string]bool {
	t.Helper()
	reg := newGatherer()
	reg.MustRegister(server.NewMetrics(), queueWait(), engineRuns("interpreter", luavm.New()),
		source.NewMetrics(), admission.NewMetrics(), controller.NewMetrics(), leader.NewMetrics())
	od := serveconfig.Default().OutlierDetection
	od.Webhooks, od.Hooks = true, true
	_, _, err := outlierDetection(od, reg)
	require.NoError(t, err)
	newFileWatch(slog.New(slog.DiscardHandler), io.Discard, reg)

	names := map[string]bool{}
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	ch := make(chan *prometheus.Desc)
	go func() {
		reg.Describe(ch)
		close(ch)
	}()
	for d := range ch {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			names[m[1]] = true
		}
	}
	return names
}

// metricName matches the metric names a PromQL expression can use of
// luainterp's, the Go runtime's and the process's.
var metricName = regexp.MustCompile(`\b(?:luainterp|go|process)_[a-zA-Z0-9_]+\b`)

// usedMetrics returns the metric names of the dashboards' queries and
// variables and of the alerts' expressions, each with where it is used.
func usedMetrics(t *testing.T) map[string][]string {
	t.Helper()
	used := map[string][]string{}
	add := func(where, expr string) {
		for _, name := range metricName.FindAllString(expr, -1) {
			if !slices.Contains(used[name], where) {
				used[name] = append(used[name], where)
			}
		}
	}
	dashboards, err := filepath.Glob("../../deploy/monitoring/dashboard-*.json")
	require.NoError(t, err)
	require.NotEmpty(t, dashboards)
	for _, file := range dashboards {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var d any
		require.NoError(t, json.Unmarshal(data, &d), file)
		walkStrings(d, "", func(key, s string) {
			if key == "expr" || key == "query" || key == "definition" {
				add(filepath.Base(file), s)
			}
		})
	}
	data, err := os.ReadFile("../../deploy/monitoring/prometheusrule.yaml")
	require.NoError(t, err)
	var rule any
	require.NoError(t, yaml.Unmarshal(data, &rule))
	walkStrings(rule, "", func(key, s string) {
		if key == "expr" {
			add("prometheusrule.yaml", s)
		}
	})
	return used
}

// walkStrings calls fn with every string of a decoded JSON value and the
// key it is under.
func walkStrings(v any, key string, fn func(key, s string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			walkStrings(e, k, fn)
		}
	case []any:
		for _, e := range v {
			walkStrings(e, key, fn)
		}
	case string:
		fn(key, v)
	}
}

// TestMonitoringMetricsAreRegistered checks that every metric the
// dashboards and alerts of deploy/monitoring use is one serve or the
// controller registers; a histogram's series (_bucket, _sum, _count) count
// as its name.
func TestMonitoringMetricsAreRegistered(t *testing.T) {
	registered := registeredMetrics(t)
	require.Contains(t, registered, "luainterp_webhook_requests_total", "the collectors describe their metrics")
	used := usedMetrics(t)
	require.NotEmpty(t, used)
	for name, where := range used {
		base := name
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if trimmed, ok := strings.CutSuffix(name, suffix); ok && registered[trimmed] {
				base = trimmed
			}
		}
		assert.True(t, registered[base], "%s, used by %s, is not a metric luainterp registers", name, strings.Join(where, ", "))
	}
}
