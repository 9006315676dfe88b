package testsuite

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// Case is one test case: an operation, its input objects and the output
// it must produce.
type Case struct {
	Name        string
	Description string
	Operation   interpreter.Operation
	// DesiredObj and ObservedObj are the input objects; which one an
	// operation reads is Request's business.
	DesiredObj    *unstructured.Unstructured
	ObservedObj   *unstructured.Unstructured
	StatusItems   []interpreter.AggregatedStatusItem
	InputReplicas int64
	// Output maps result names to their expected values (JSON values); nil
	// when the case only checks that the operation runs without error.
	Output map[string]any
	// ExpectError makes the case pass only when the operation fails, with
	// an error containing ErrorContains.
	ExpectError   bool
	ErrorContains string
	// Source is where the case was read from.
	Source Source
	// Err, when not nil, is why the document (or, with Document 0, the
	// file) could not be read as a case: such a case fails without running.
	Err error
	// Warnings are the fields of the case Karmada's decoder does not read
	// as written (each a *DocumentError holding a *FieldError): unknown
	// fields, ignored, and names that differ in case, read as the field
	// they stand for.
	Warnings []error
	// doc is the document the case was read from; see OutputSource.
	doc manifest.Document
}

// document is a test case as written.
type document struct {
	Name          string                             `json:"name"`
	Description   string                             `json:"description"`
	Operation     string                             `json:"operation"`
	DesiredObj    map[string]any                     `json:"desiredObj"`
	ObservedObj   map[string]any                     `json:"observedObj"`
	StatusItems   []interpreter.AggregatedStatusItem `json:"statusItems"`
	InputReplicas int64                              `json:"inputReplicas"`
	Output        map[string]any                     `json:"output"`
	ExpectError   bool                               `json:"expectError"`
	ErrorContains string                             `json:"errorContains"`
}

// decodeCase decodes and checks one YAML document; its error is a
// *DocumentError. Fields are read as Karmada's decoder reads them (see
// FieldError); each field it would not read as written is a warning of
// the case, or with o.strict an error: then the case comes back with the
// error, holding it in Err.
func decodeCase(doc manifest.Document, o options) (*Case, error) {
	data, err := doc.JSON()
	if err != nil {
		return nil, err
	}
	var d document
	if err := decodeLikeKarmada(data, &d); err != nil {
		return nil, &DocumentError{Source: doc.Source, Name: nameOf(data), Err: fmt.Errorf("decoding test case: %w", err)}
	}
	c := &Case{
		Name:          d.Name,
		Description:   d.Description,
		StatusItems:   d.StatusItems,
		InputReplicas: d.InputReplicas,
		Output:        quantityNumbersAsStrings(d.Output),
		ExpectError:   d.ExpectError || d.ErrorContains != "",
		ErrorContains: d.ErrorContains,
		Source:        doc.Source,
		Warnings:      fieldErrors(doc, d.Name, data),
	}
	if d.DesiredObj != nil {
		c.DesiredObj = &unstructured.Unstructured{Object: d.DesiredObj}
	}
	if d.ObservedObj != nil {
		c.ObservedObj = &unstructured.Unstructured{Object: d.ObservedObj}
	}
	if err := c.check(d.Operation); err != nil {
		return nil, &DocumentError{Source: doc.Source, Name: c.Name, Err: err}
	}
	if o.strict && len(c.Warnings) > 0 {
		// The case keeps its name and operation, so that --run selects
		// it and it fails under the name it is known by.
		c.Err = errors.Join(c.Warnings...)
		return c, c.Err
	}
	return c, nil
}

// check checks a decoded case, given its operation as written.
func (c *Case) check(operation string) error {
	if strings.TrimSpace(c.Name) == "" {
		return errors.New("name: required")
	}
	if operation == "" {
		return errors.New("operation: required")
	}
	var err error
	if c.Operation, err = interpreter.ParseOperation(operation); err != nil {
		return fmt.Errorf("operation: %w", err)
	}
	_, err = c.Request()
	return err
}

// Request returns the operation's input. InterpretReplica, ReviseReplica,
// InterpretComponent, InterpretStatus, InterpretHealth and
// InterpretDependency read observedObj, or desiredObj when there is no
// observedObj; AggregateStatus reads desiredObj (or observedObj) and
// statusItems; Retain reads both objects.
func (c *Case) Request() (interpreter.Request, error) {
	req := interpreter.NewRequest(c.Operation, c.DesiredObj, c.ObservedObj)
	req.DesiredReplicas, req.StatusItems = c.InputReplicas, c.StatusItems
	switch {
	case c.Operation == interpreter.Retain && req.Object == nil:
		return req, errors.New("desiredObj: required for Retain")
	case c.Operation == interpreter.Retain && req.ObservedObject == nil:
		return req, errors.New("observedObj: required for Retain")
	case c.Operation == interpreter.AggregateStatus && req.Object == nil:
		return req, errors.New("desiredObj: required for AggregateStatus")
	case req.Object == nil:
		return req, fmt.Errorf("observedObj (or desiredObj): required for %s", c.Operation)
	}
	return req, nil
}

// kind is the kind of the object the case's operation reads, for messages.
func (c *Case) kind() string {
	req, err := c.Request()
	if err != nil {
		return "no object"
	}
	return req.Object.GroupVersionKind().String()
}

// quantityNumbersAsStrings writes the numbers of the expected resource
// requests as the strings they stand for. Those fields are Kubernetes
// ResourceLists, where `cpu: 1` is the quantity "1", as Karmada decodes
// them; elsewhere a number and a string differ (see package compare).
func quantityNumbersAsStrings(output map[string]any) map[string]any {
	if requires, ok := output["requires"].(map[string]any); ok {
		numbersAsStrings(requires["resourceRequest"])
	}
	if components, ok := output["components"].([]any); ok {
		for _, c := range components {
			if c, ok := c.(map[string]any); ok {
				if req, ok := c["replicaRequirements"].(map[string]any); ok {
					numbersAsStrings(req["resourceRequest"])
				}
			}
		}
	}
	return output
}

func numbersAsStrings(list any) {
	m, _ := list.(map[string]any)
	for name, v := range m {
		switch v := v.(type) {
		case int64:
			m[name] = strconv.FormatInt(v, 10)
		case float64:
			m[name] = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
}
