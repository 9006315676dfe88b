package objectinput

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// Decode decodes the one document of docs, read from the file named
// name, into v, strictly, and returns where the document is.
func Decode(name string, docs []manifest.Document, v any) (manifest.Source, error) {
	doc, err := manifest.One(docs)
	if err != nil {
		return manifest.Source{}, fmt.Errorf("%s: %w", name, err)
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
		return manifest.Source{}, err
	}
	return doc.Source, nil
}

// Object decodes the Kubernetes object of docs: one with an apiVersion
// and a kind.
func Object(name string, docs []manifest.Document) (*unstructured.Unstructured, error) {
	var obj map[string]any
	src, err := Decode(name, docs, &obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	if obj == nil || u.GetAPIVersion() == "" || u.GetKind() == "" {
		return nil, &manifest.Error{Source: src, Err: errors.New("want a Kubernetes object with apiVersion and kind")}
	}
	return u, nil
}

// StatusItems decodes the list of AggregatedStatusItems of docs, each
// health one of Karmada's or none.
func StatusItems(name string, docs []manifest.Document) ([]interpreter.AggregatedStatusItem, error) {
	var items []interpreter.AggregatedStatusItem
	src, err := Decode(name, docs, &items)
	if err != nil {
		return nil, err
	}
	for i, item := range items {
		switch item.Health {
		case "", interpreter.ResourceHealthy, interpreter.ResourceUnhealthy, interpreter.ResourceUnknownHealth:
		default:
			src.Item = i + 1
			return nil, &manifest.Error{Source: src, Err: fmt.Errorf("health: want Healthy, Unhealthy or Unknown, got %q", item.Health)}
		}
	}
	return items, nil
}
