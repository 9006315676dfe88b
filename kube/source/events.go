package source

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
)

// component is the source of the Events.
const component = "luainterp"

// maxEventMessage bounds an Event's message; a longer one is cut.
const maxEventMessage = 1024

// events records Kubernetes Events on the objects (in the default
// namespace, as for any cluster-scoped object).
type events struct {
	broadcaster record.EventBroadcaster
	recorder    record.EventRecorder
}

func newEvents(kube kubernetes.Interface, log *slog.Logger) *events {
	b := record.NewBroadcaster()
	b.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kube.CoreV1().Events("")})
	b.StartEventWatcher(func(e *corev1.Event) {
		log.Debug("event", "object", e.InvolvedObject.Name, "reason", e.Reason, "message", e.Message)
	})
	return &events{broadcaster: b, recorder: b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: component})}
}

func (e *events) stop() { e.broadcaster.Shutdown() }

// report tells of the outcome of loading u: an Event on it, a log line
// and a metric. serving is the resourceVersion still serving when err is
// not nil ("" when none).
func (s *Source) report(kind string, u *unstructured.Unstructured, serving string, err error) {
	log := s.o.log.With("kind", kind, "name", u.GetName(), "resourceVersion", u.GetResourceVersion())
	if err == nil {
		s.o.metrics.objectLoads.WithLabelValues(kind, "loaded").Inc()
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

func (s *Source) event(u *unstructured.Unstructured, eventType, reason, message string) {
	if s.events == nil {
		return
	}
	if len(message) > maxEventMessage {
		message = message[:maxEventMessage-3] + "..."
	}
	s.events.recorder.Event(u, eventType, reason, message)
}
