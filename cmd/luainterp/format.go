package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// format is a format of -o/--output.
type format string

// The formats; each command offers some of them.
const (
	formatText format = "text"
	formatYAML format = "yaml"
	formatJSON format = "json"
)

// parseFormat parses the value of -o, ignoring case, among the formats a
// command offers.
func parseFormat(s string, offered ...format) (format, error) {
	if f := format(strings.ToLower(s)); slices.Contains(offered, f) {
		return f, nil
	}
	names := make([]string, len(offered))
	for i, f := range offered {
		names[i] = string(f)
	}
	want := strings.Join(names, " or ")
	if n := len(names); n > 2 {
		want = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return "", fmt.Errorf("--output: unknown format %q: want %s", s, want)
}

// encode returns v as one YAML or JSON document.
func (f format) encode(v any) ([]byte, error) {
	if f == formatYAML {
		return yaml.Marshal(v)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	return append(data, '\n'), err
}

// print writes v as one YAML or JSON document.
func (f format) print(w io.Writer, v any) error {
	data, err := f.encode(v)
	if err != nil {
		return fmt.Errorf("encoding results: %w", err)
	}
	_, err = w.Write(data)
	return err
}
