package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
)

// inputs reads the files named by flags, standard input for "-" (once).
type inputs struct {
	stdin     io.Reader
	stdinUsed string // the flag that read standard input
}

func newInputs(stdin io.Reader) *inputs { return &inputs{stdin: stdin} }

// read returns the contents of path, the value of flag.
func (in *inputs) read(flag, path string) ([]byte, error) {
	if path != "-" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return data, nil
	}
	if in.stdinUsed != "" {
		return nil, fmt.Errorf("%s: standard input is already read for %s", flag, in.stdinUsed)
	}
	in.stdinUsed = flag
	data, err := io.ReadAll(in.stdin)
	if err != nil {
		return nil, fmt.Errorf("%s: reading standard input: %w", flag, err)
	}
	return data, nil
}

// decode reads a YAML or JSON file of one document into v, strictly:
// unknown fields and duplicate keys are errors. Integers stay int64, as
// in Kubernetes.
func (in *inputs) decode(flag, path string, v any) error {
	data, err := in.read(flag, path)
	if err != nil {
		return err
	}
	where := flag + " " + path
	if path == "-" {
		where = flag + " <stdin>"
	}
	doc, err := singleDocument(data)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	strict, err := kjson.UnmarshalStrict(js, v)
	if err = errors.Join(append([]error{err}, strict...)...); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// singleDocument returns the one non-empty document of a YAML stream.
func singleDocument(data []byte) ([]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var found []byte
	for n := 0; ; {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return found, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		if n++; n > 1 {
			return nil, errors.New("want one document, found several")
		}
		found = doc
	}
}

// stripComments drops comment lines, so that a document of comments counts as empty.
func stripComments(doc []byte) []byte {
	var out []byte
	for line := range bytes.Lines(doc) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}

// object reads the Kubernetes object of path; nil when path is "".
func (in *inputs) object(flag, path string) (*unstructured.Unstructured, error) {
	if path == "" {
		return nil, nil
	}
	var obj map[string]any
	if err := in.decode(flag, path, &obj); err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	if obj == nil || u.GetAPIVersion() == "" || u.GetKind() == "" {
		return nil, fmt.Errorf("%s %s: want a Kubernetes object with apiVersion and kind", flag, path)
	}
	return u, nil
}

// statusItems reads a list of AggregatedStatusItems; none when path is "".
func (in *inputs) statusItems(flag, path string) ([]interpreter.AggregatedStatusItem, error) {
	if path == "" {
		return nil, nil
	}
	var items []interpreter.AggregatedStatusItem
	if err := in.decode(flag, path, &items); err != nil {
		return nil, err
	}
	for i, item := range items {
		switch item.Health {
		case "", interpreter.ResourceHealthy, interpreter.ResourceUnhealthy, interpreter.ResourceUnknownHealth:
		default:
			return nil, fmt.Errorf("%s %s: item %d: health: want Healthy, Unhealthy or Unknown, got %q", flag, path, i+1, item.Health)
		}
	}
	return items, nil
}

func firstObject(objs ...*unstructured.Unstructured) *unstructured.Unstructured {
	for _, o := range objs {
		if o != nil {
			return o
		}
	}
	return nil
}

// format is an output format of results.
type format string

func parseFormat(s string) (format, error) {
	switch f := format(strings.ToLower(s)); f {
	case "yaml", "json":
		return f, nil
	}
	return "", fmt.Errorf("--output: unknown format %q: want yaml or json", s)
}

// print writes v as one document.
func (f format) print(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding results: %w", err)
	}
	if f == "yaml" {
		if data, err = yaml.JSONToYAML(data); err != nil {
			return fmt.Errorf("encoding results: %w", err)
		}
	} else {
		data = append(data, '\n')
	}
	_, err = w.Write(data)
	return err
}
