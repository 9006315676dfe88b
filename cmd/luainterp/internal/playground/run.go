package playground

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/objectinput"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// The inputs' names: the editors an Error points at.
const (
	InputCustomization = "customization"
	InputObject        = "object"
	InputObserved      = "observed"
	InputStatusItems   = "statusItems"
	InputTests         = "tests"
)

// RunRequest is the body of /api/run, /api/runall and /api/testcase.
type RunRequest struct {
	Customization string `json:"customization"`
	Object        string `json:"object"`
	Observed      string `json:"observed,omitempty"`
	StatusItems   string `json:"statusItems,omitempty"`
	Replicas      int64  `json:"replicas,omitempty"`
	Operation     string `json:"operation,omitempty"`
	Name          string `json:"name,omitempty"` // /api/testcase: the case's name
}

// Answer is the outcome of one operation.
type Answer struct {
	Operation string `json:"operation"`
	// Layer answered; "" when no layer has a hook for the kind.
	Layer string `json:"layer"`
	// Results are the operation's results by result name.
	Results map[string]any `json:"results,omitempty"`
	// Text is Results as YAML.
	Text string `json:"text,omitempty"`
	// Input and Output are the object the operation read and the one it
	// returned, as YAML, for the operations that return an object.
	Input      string  `json:"input,omitempty"`
	Output     string  `json:"output,omitempty"`
	Printed    string  `json:"printed,omitempty"`
	Error      *Error  `json:"error,omitempty"`
	DurationMs float64 `json:"durationMs"`
}

// runAllAnswer is the answer of /api/runall.
type runAllAnswer struct {
	Results []*Answer `json:"results"`
}

// inputs are a RunRequest's texts decoded, with the error of each that
// did not decode.
type inputs struct {
	set                   *customization.Set
	registry              *interpreter.Registry
	object, observed      *unstructured.Unstructured
	statusItems           []interpreter.AggregatedStatusItem
	replicas              int64
	err                   *Error // of the customization or the object: every operation fails with it
	observedErr, itemsErr *Error
}

// decode decodes the texts of in and builds the registry answering them.
func (s *Server) decode(in *RunRequest) *inputs {
	d := &inputs{replicas: in.Replicas}
	var err error
	if d.set, err = parseCustomization(in.Customization); err != nil {
		d.err = newError(InputCustomization, err)
		return d
	}
	if d.registry, err = s.registry(d.set); err != nil {
		d.err = newError(InputCustomization, err)
		return d
	}
	if d.object, err = parseObject(InputObject, in.Object); err != nil {
		d.err = newError(InputObject, err)
		return d
	}
	d.observed = d.object
	if strings.TrimSpace(in.Observed) != "" {
		if d.observed, err = parseObject(InputObserved, in.Observed); err != nil {
			d.observedErr = newError(InputObserved, err)
		}
	}
	if strings.TrimSpace(in.StatusItems) != "" {
		docs := manifest.Split(manifest.File{Name: InputStatusItems, Data: []byte(in.StatusItems)})
		if d.statusItems, err = objectinput.StatusItems(InputStatusItems, docs); err != nil {
			d.itemsErr = newError(InputStatusItems, err)
		}
	}
	return d
}

// parseCustomization reads the customizations of the editor's text; an
// empty text holds none.
func parseCustomization(text string) (*customization.Set, error) {
	if strings.TrimSpace(text) == "" {
		return &customization.Set{}, nil
	}
	return customization.Parse(InputCustomization, []byte(text))
}

func parseObject(name, text string) (*unstructured.Unstructured, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%s: empty: want a Kubernetes object with apiVersion and kind", name)
	}
	return objectinput.Object(name, manifest.Split(manifest.File{Name: name, Data: []byte(text)}))
}

// request is the interpreter request of op on d, or the error of an
// input op reads.
func (d *inputs) request(op interpreter.Operation) (interpreter.Request, *Error) {
	var req interpreter.Request
	switch op {
	case interpreter.Retain:
		if d.observedErr != nil {
			return req, d.observedErr
		}
		req = interpreter.NewRequest(op, d.object, d.observed)
	case interpreter.AggregateStatus:
		if d.itemsErr != nil {
			return req, d.itemsErr
		}
		req = interpreter.NewRequest(op, d.object, nil)
		req.StatusItems = d.statusItems
	default:
		req = interpreter.NewRequest(op, nil, d.object)
		req.DesiredReplicas = d.replicas
	}
	return req, nil
}

// answer runs op on d.
func (s *Server) answer(ctx context.Context, d *inputs, op interpreter.Operation) *Answer {
	a := &Answer{Operation: op.String()}
	if d.err != nil {
		a.Error = d.err
		return a
	}
	req, inErr := d.request(op)
	if inErr != nil {
		a.Error = inErr
		return a
	}
	if layer, ok := d.registry.Which(req.Object.GroupVersionKind(), op); ok {
		a.Layer = layer.String()
	} else {
		return a
	}
	var printed strings.Builder
	ctx, cancel := context.WithTimeout(luavm.ContextWithPrint(ctx, func(line string) {
		if printed.Len() < 64<<10 {
			printed.WriteString(line + "\n")
		}
	}), s.timeout)
	defer cancel()
	start := time.Now()
	resp, err := d.registry.Interpret(ctx, req)
	a.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	a.Printed = printed.String()
	if err != nil {
		a.Error = newError(InputCustomization, err)
		return a
	}
	a.Results = resp.Results()
	a.Text = toYAML(a.Results)
	if resp.Object != nil {
		a.Input, a.Output = toYAML(req.Object.Object), toYAML(resp.Object.Object)
	}
	return a
}

func toYAML(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprintf("# cannot show as YAML: %v\n", err)
	}
	return string(b)
}

func parseOperation(name string) (interpreter.Operation, error) {
	op, err := interpreter.ParseOperation(name)
	if err != nil {
		return op, badRequest{fmt.Errorf("operation: %w", err)}
	}
	return op, nil
}

func (s *Server) run(r *http.Request, in *RunRequest) (*Answer, error) {
	op, err := parseOperation(in.Operation)
	if err != nil {
		return nil, err
	}
	return s.answer(r.Context(), s.decode(in), op), nil
}

func (s *Server) runAll(r *http.Request, in *RunRequest) (*runAllAnswer, error) {
	d := s.decode(in)
	out := &runAllAnswer{}
	for _, op := range interpreter.Operations() {
		out.Results = append(out.Results, s.answer(r.Context(), d, op))
	}
	return out, nil
}
