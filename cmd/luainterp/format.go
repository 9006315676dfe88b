package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
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

// outputFlag is the -o/--output flag of a command: the formats it
// offers, the first of them its default, which shell completion offers.
type outputFlag struct {
	value   string
	offered []format
}

// addOutputFlag adds -o/--output to cmd, offering the formats.
func addOutputFlag(cmd *cobra.Command, offered ...format) *outputFlag {
	o := &outputFlag{value: string(offered[0]), offered: offered}
	cmd.Flags().StringVarP(&o.value, "output", "o", o.value, "output format: "+orList(formatNames(offered)))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(formatNames(offered), cobra.ShellCompDirectiveNoFileComp))
	return o
}

// format returns the format the flag names.
func (o *outputFlag) format() (format, error) { return parseFormat(o.value, o.offered...) }

func formatNames(formats []format) []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return names
}

// orList joins names as "a or b", "a, b or c".
func orList(names []string) string {
	if n := len(names); n > 2 {
		return strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return strings.Join(names, " or ")
}

// parseFormat parses the value of -o, ignoring case, among the formats a
// command offers.
func parseFormat(s string, offered ...format) (format, error) {
	if f := format(strings.ToLower(s)); slices.Contains(offered, f) {
		return f, nil
	}
	return "", fmt.Errorf("--output: unknown format %q: want %s", s, orList(formatNames(offered)))
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
