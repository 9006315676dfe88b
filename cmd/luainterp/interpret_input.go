package main

import (
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// inputs reads the files named by flags, standard input for "-" (once;
// see checkStdin).
type inputs struct {
	reader manifest.Reader
}

func newInputs(stdin io.Reader) *inputs { return &inputs{reader: manifest.Reader{Stdin: stdin}} }

// decode reads the one YAML or JSON document of the file a flag names
// into v, strictly: unknown fields and duplicate keys are errors.
// Integers stay int64, as in Kubernetes. It returns where the document is.
func (in *inputs) decode(flag, path string, v any) (manifest.Source, error) {
	docs, err := in.reader.Documents(path)
	if err != nil {
		return manifest.Source{}, fmt.Errorf("%s: %w", flag, err)
	}
	doc, err := manifest.One(docs)
	if err != nil {
		name := path
		if path == manifest.Stdin {
			name = manifest.StdinName
		}
		return manifest.Source{}, fmt.Errorf("%s: %s: %w", flag, name, err)
	}
	js, err := doc.JSON()
	if err == nil {
		var strict []error
		strict, err = kjson.UnmarshalStrict(js, v)
		if err = errors.Join(append([]error{err}, strict...)...); err != nil {
			err = &manifest.Error{Source: doc.Source, Err: err}
		}
	}
	if err != nil {
		return manifest.Source{}, fmt.Errorf("%s: %w", flag, err)
	}
	return doc.Source, nil
}

// object reads the Kubernetes object of path; nil when path is "".
func (in *inputs) object(flag, path string) (*unstructured.Unstructured, error) {
	if path == "" {
		return nil, nil
	}
	var obj map[string]any
	src, err := in.decode(flag, path, &obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	if obj == nil || u.GetAPIVersion() == "" || u.GetKind() == "" {
		return nil, fmt.Errorf("%s: %w", flag, &manifest.Error{Source: src, Err: errors.New("want a Kubernetes object with apiVersion and kind")})
	}
	return u, nil
}

// statusItems reads a list of AggregatedStatusItems; none when path is "".
func (in *inputs) statusItems(flag, path string) ([]interpreter.AggregatedStatusItem, error) {
	if path == "" {
		return nil, nil
	}
	var items []interpreter.AggregatedStatusItem
	src, err := in.decode(flag, path, &items)
	if err != nil {
		return nil, err
	}
	for i, item := range items {
		switch item.Health {
		case "", interpreter.ResourceHealthy, interpreter.ResourceUnhealthy, interpreter.ResourceUnknownHealth:
		default:
			src.Item = i + 1
			return nil, fmt.Errorf("%s: %w", flag, &manifest.Error{Source: src,
				Err: fmt.Errorf("health: want Healthy, Unhealthy or Unknown, got %q", item.Health)})
		}
	}
	return items, nil
}
