package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		offered []format
		want    format
		err     string
	}{
		{name: "offered", value: "json", offered: []format{formatYAML, formatJSON}, want: formatJSON},
		{name: "any case", value: "YAML", offered: []format{formatYAML, formatJSON}, want: formatYAML},
		{name: "not offered", value: "text", offered: []format{formatYAML, formatJSON}, err: `--output: unknown format "text": want yaml or json`},
		{name: "three offered", value: "xml", offered: []format{formatText, formatYAML, formatJSON}, err: `--output: unknown format "xml": want text, yaml or json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFormat(tt.value, tt.offered...)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestFormatPrint(t *testing.T) {
	v := map[string]any{"replica": 2, "requires": map[string]any{"cpu": "1"}}
	for f, want := range map[format]string{
		formatYAML: "replica: 2\nrequires:\n  cpu: \"1\"\n",
		formatJSON: "{\n  \"replica\": 2,\n  \"requires\": {\n    \"cpu\": \"1\"\n  }\n}\n",
	} {
		t.Run(string(f), func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, f.print(&b, v))
			assert.Equal(t, want, b.String())
		})
	}
}
