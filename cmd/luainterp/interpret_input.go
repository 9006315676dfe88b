package main

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/objectinput"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// inputs reads the files named by flags, standard input for "-" (once;
// see checkStdin).
type inputs struct {
	reader manifest.Reader
}

func newInputs(stdin io.Reader) *inputs { return &inputs{reader: manifest.Reader{Stdin: stdin}} }

// documents reads the documents of the file a flag names, and the name
// that stands for it in messages.
func (in *inputs) documents(flag, path string) (string, []manifest.Document, error) {
	docs, err := in.reader.Documents(path)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", flag, err)
	}
	if path == manifest.Stdin {
		return manifest.StdinName, docs, nil
	}
	return path, docs, nil
}

// object reads the Kubernetes object of path; nil when path is "".
func (in *inputs) object(flag, path string) (*unstructured.Unstructured, error) {
	if path == "" {
		return nil, nil
	}
	name, docs, err := in.documents(flag, path)
	if err != nil {
		return nil, err
	}
	obj, err := objectinput.Object(name, docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return obj, nil
}

// statusItems reads a list of AggregatedStatusItems; none when path is "".
func (in *inputs) statusItems(flag, path string) ([]interpreter.AggregatedStatusItem, error) {
	if path == "" {
		return nil, nil
	}
	name, docs, err := in.documents(flag, path)
	if err != nil {
		return nil, err
	}
	items, err := objectinput.StatusItems(name, docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return items, nil
}
