package main

import (
	"fmt"
	"io"
	"log/slog"

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
	klog.SetSlogLogger(log)
	return log, nil
}

// newGatherer returns the registry of a command's metrics, holding the Go
// runtime's and the process's, and luainterp_build_info: 1, labelled with
// the version, commit and Go version of the binary (see `luainterp version`).
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
	gatherer.MustRegister(build, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return gatherer
}
