package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
)

// The formats of --log-format.
const (
	logText = "text"
	logJSON = "json"
)

// addLogFormatFlag adds --log-format to a long-running command's flags.
func addLogFormatFlag(f *pflag.FlagSet, format *string) {
	f.StringVar(format, "log-format", logText, "the format of the log on standard error: text (key=value) or json (one object a line)")
}

// newLogger returns the command's log on w in format, and sends client-go's
// own log (klog) through it, so that the stream holds one format only.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	var h slog.Handler
	switch format {
	case logText:
		h = slog.NewTextHandler(w, nil)
	case logJSON:
		h = slog.NewJSONHandler(w, nil)
	default:
		return nil, fmt.Errorf("--log-format: unknown format %q: want %s or %s", format, logText, logJSON)
	}
	log := slog.New(h)
	klogTo(h)
	return log, nil
}

// klogHandler is where client-go's log goes: the handler of the command
// that started last. klog's logger is set once, to a handler reading this,
// because setting it races with every informer logging (klog.SetLogger is
// for a program's start, and tests start many commands in one process).
var (
	klogHandler atomic.Pointer[slog.Handler]
	klogOnce    sync.Once
)

func klogTo(h slog.Handler) {
	klogHandler.Store(&h)
	klogOnce.Do(func() { klog.SetSlogLogger(slog.New(forwardHandler{})) })
}

// forwardHandler hands each record to klogHandler's handler, with the
// attributes and groups it was given, in their order.
type forwardHandler struct {
	with []func(slog.Handler) slog.Handler
}

func (f forwardHandler) handler() slog.Handler {
	h := *klogHandler.Load()
	for _, with := range f.with {
		h = with(h)
	}
	return h
}

func (f forwardHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return f.handler().Enabled(ctx, l)
}

func (f forwardHandler) Handle(ctx context.Context, r slog.Record) error {
	return f.handler().Handle(ctx, r)
}

func (f forwardHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return f.and(func(h slog.Handler) slog.Handler { return h.WithAttrs(attrs) })
}

func (f forwardHandler) WithGroup(name string) slog.Handler {
	return f.and(func(h slog.Handler) slog.Handler { return h.WithGroup(name) })
}

func (f forwardHandler) and(with func(slog.Handler) slog.Handler) forwardHandler {
	return forwardHandler{with: append(f.with[:len(f.with):len(f.with)], with)}
}

// liveHeapMetric adds the runtime's /gc/heap/live:bytes to the Go
// collector's default metrics, as go_gc_heap_live_bytes.
var liveHeapMetric = collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)}

// newGatherer returns the registry of a command's metrics, holding the Go
// runtime's (with go_gc_heap_live_bytes, the heap the last collection
// marked live: the figure to size a replica's memory by) and the
// process's, and luainterp_build_info: 1, labelled with the version,
// commit and Go version of the binary (see `luainterp version`).
func newGatherer() *prometheus.Registry {
	info := readBuildInfo()
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "luainterp_build_info",
		Help: "Always 1; its labels say which build of luainterp runs.",
		ConstLabels: prometheus.Labels{
			"version": info.Version, "commit": info.Commit, "goversion": info.GoVersion,
		},
	})
	build.Set(1)
	gatherer := prometheus.NewRegistry()
	gatherer.MustRegister(build, collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(liveHeapMetric)), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return gatherer
}
