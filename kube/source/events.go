package source

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"

	"github.com/luainterp/luainterp/interpreter/customization"
)

// The reasons of the Events a Source records on the objects it reads.
const (
	ReasonLoaded       = "Loaded"
	ReasonLoadFailed   = "LoadFailed"
	ReasonEmptyRefused = "EmptyRefused" // a version that would drop every operation (customization.EmptiedError)
	// ReasonConflict: the customization defines an operation of its target
	// that another, first in name order, defines too; the message names the
	// one used (customization.Conflict).
	ReasonConflict = "Conflict"
)

// component is the source of the Events.
const component = "luainterp"

// maxEventMessage bounds an Event's message; a longer one is cut.
const maxEventMessage = 1024

// events records Kubernetes Events on the objects (in the default
// namespace, as for any cluster-scoped object). Warnings have a
// broadcaster of their own: a broadcaster sends its Events one at a time,
// at the client's rate, and drops those past its queue, so that Normal
// Events in a burst would delay or drop a Warning behind them.
//
// A broadcaster starts with its first Event: its queues take ~0.1 MiB, and
// a Source that loads what it finds at start and nothing after (the usual
// life of one inside a controller) records none.
type events struct {
	normal, warning lazyRecorder
}

// lazyRecorder is a broadcaster and its recorder, opened on first use.
type lazyRecorder struct {
	open   func() *recorder
	once   sync.Once
	opened *recorder
}

// recorder is a broadcaster and its recorder.
type recorder struct {
	broadcaster record.EventBroadcaster
	record.EventRecorder
}

func newEvents(kube kubernetes.Interface, log *slog.Logger) *events {
	open := func() *recorder {
		b := record.NewBroadcaster()
		b.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kube.CoreV1().Events("")})
		b.StartEventWatcher(func(e *corev1.Event) {
			log.Debug("event", "object", e.InvolvedObject.Name, "reason", e.Reason, "message", e.Message)
		})
		return &recorder{broadcaster: b, EventRecorder: b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: component})}
	}
	return &events{normal: lazyRecorder{open: open}, warning: lazyRecorder{open: open}}
}

// get returns the recorder, opening it the first time.
func (l *lazyRecorder) get() *recorder {
	l.once.Do(func() { l.opened = l.open() })
	return l.opened
}

// stop shuts the broadcaster down if it was opened, and keeps it from
// opening after.
func (l *lazyRecorder) stop() {
	l.once.Do(func() {})
	if l.opened != nil {
		l.opened.broadcaster.Shutdown()
	}
}

func (e *events) stop() {
	e.normal.stop()
	e.warning.stop()
}

// report tells of the outcome of loading u: an Event on it, a log line
// and a metric. serving is the resourceVersion still serving when err is
// not nil ("" when none).
//
// A good load of an object of the first list gets a Debug line and no
// Event (Start logs how many loaded): a thousand objects at start-up
// would make a thousand Normal Events. A failure is told whenever it
// happens.
func (s *Source) report(kind string, u *unstructured.Unstructured, serving string, initial bool, err error) {
	log := s.o.log.With("kind", kind, "name", u.GetName(), "resourceVersion", u.GetResourceVersion())
	if err == nil {
		s.o.metrics.objectLoads.WithLabelValues(kind, "loaded").Inc()
		if initial {
			log.Debug("loaded")
			return
		}
		log.Info("loaded")
		s.event(u, corev1.EventTypeNormal, ReasonLoaded, "loaded by luainterp"+s.operations(kind, u.GetName()))
		return
	}
	kept := "nothing of it serves"
	if serving != "" {
		kept = "resourceVersion " + serving + " still serves"
	}
	var emptied *customization.EmptiedError
	if errors.As(err, &emptied) {
		s.o.metrics.objectLoads.WithLabelValues(kind, "emptied").Inc()
		log.Warn("not loaded: "+kept+"; delete the object to remove its hooks", "error", err)
		s.event(u, corev1.EventTypeWarning, ReasonEmptyRefused, fmt.Sprintf("not loaded (%s): %v; delete the object to remove its hooks", kept, err))
		return
	}
	s.o.metrics.objectLoads.WithLabelValues(kind, "invalid").Inc()
	log.Error("not loaded: "+kept, "error", err)
	s.event(u, corev1.EventTypeWarning, ReasonLoadFailed, fmt.Sprintf("not loaded (%s): %v", kept, err))
}

// operations lists the operations a loaded customization defines, for its Event.
func (s *Source) operations(kind, name string) string {
	if kind != CustomizationKind {
		return ""
	}
	s.mu.Lock()
	o := s.customizations[name]
	var c *customization.Customization
	if o != nil && o.loaded && len(o.good.Customizations) == 1 {
		c = o.good.Customizations[0]
	}
	s.mu.Unlock()
	if c == nil {
		return ""
	}
	keys := make([]string, 0, len(c.Operations()))
	for _, op := range c.Operations() {
		keys = append(keys, op.CustomizationKey())
	}
	return ": " + strings.Join(keys, ", ")
}

func (s *Source) event(obj runtime.Object, eventType, reason, message string) {
	if s.events == nil {
		return
	}
	if len(message) > maxEventMessage {
		message = message[:maxEventMessage-3] + "..."
	}
	r := &s.events.normal
	if eventType == corev1.EventTypeWarning {
		r = &s.events.warning
	}
	if opened := r.get(); opened != nil {
		opened.Event(obj, eventType, reason, message)
	}
}
