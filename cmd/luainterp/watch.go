package main

import (
	"io"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// fileWatch follows the customization files of -f for --watch, in serve
// and controller, and reports what each reload did with each file: a log
// line, at WARN when a file's new contents are held and its last good
// version goes on serving, and the metric
//
//	luainterp_customization_file_reloads_total{file,outcome}  outcome loaded, invalid, emptied or deleted
//	luainterp_customizations_last_reload_successful          1 when every file loaded, 0 when one is held
//	luainterp_customizations_last_reload_success_timestamp_seconds
//
// the last two named as Prometheus names its own configuration reloads.
type fileWatch struct {
	log         *slog.Logger
	stderr      io.Writer // the loads' warnings are printed here
	reloads     *prometheus.CounterVec
	successful  prometheus.Gauge
	successTime prometheus.Gauge
}

// newFileWatch returns a fileWatch whose metric is registered in gatherer.
func newFileWatch(log *slog.Logger, stderr io.Writer, gatherer prometheus.Registerer) *fileWatch {
	w := &fileWatch{log: log, stderr: stderr, reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "luainterp_customization_file_reloads_total",
		Help: "What --watch did with a customization file that changed: outcome loaded, invalid or emptied (its last good version still serves) or deleted.",
	}, []string{"file", "outcome"})}
	w.successful = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "luainterp_customizations_last_reload_successful",
		Help: "1 when the last load of the -f files loaded every file, 0 when one was held (its last good version serving) or the load failed.",
	})
	w.successTime = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "luainterp_customizations_last_reload_success_timestamp_seconds",
		Help: "When the -f files last loaded without a problem, in seconds since the Unix epoch.",
	})
	gatherer.MustRegister(w.reloads, w.successful, w.successTime)
	return w
}

// reloader returns a Reloader of paths into reg, its scripts compiled on
// engine; serving, when not nil, is told the Set serving after each load.
func (w *fileWatch) reloader(reg *interpreter.Registry, engine *luavm.Engine, paths []string, serving func(*customization.Set)) *customization.Reloader {
	started := false // the first load's outcome is Start's to tell; later ones are logged
	return &customization.Reloader{
		Registry: reg,
		Engine:   engine,
		Paths:    paths,
		OnFile: func(f customization.FileReload) {
			w.reloads.WithLabelValues(f.File, f.Outcome.String()).Inc()
			if started {
				w.file(f)
			}
		},
		OnLoad: func(set *customization.Set, err error) {
			if set != nil && err == nil {
				w.successful.Set(1)
				w.successTime.SetToCurrentTime()
			} else {
				w.successful.Set(0)
			}
			switch {
			case set != nil:
				printWarnings(w.stderr, set.Warnings)
				if serving != nil {
					serving(set)
				}
				if started {
					w.log.Info("customizations reloaded", "customizations", len(set.Customizations), "held", err != nil)
				}
			case started:
				w.log.Error("customizations not reloaded: keeping the previous ones", "error", err)
			}
			started = true
		},
	}
}

// file logs what a reload did with one file.
func (w *fileWatch) file(f customization.FileReload) {
	switch f.Outcome {
	case customization.FileInvalid, customization.FileEmptied:
		kept := "nothing of it serves"
		if f.Serving {
			kept = "its last good version still serves; delete the file to remove its hooks"
		}
		w.log.Warn("customization file not reloaded: "+kept, "file", f.File, "outcome", f.Outcome.String(), "error", f.Err)
	case customization.FileDeleted:
		w.log.Info("customization file deleted: its customizations are removed", "file", f.File)
	default:
		w.log.Info("customization file reloaded", "file", f.File)
	}
}
