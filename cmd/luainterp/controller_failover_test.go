package main

import (
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFailoverFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		errMsg  string
		options int
	}{
		{"defaults: only the gates", nil, "", 1},
		{"every controller", []string{"--application-failover", "--graceful-eviction", "--enable-no-execute-taint-eviction"}, "", 4},
		{"Directly", []string{"--no-execute-taint-eviction-purge-mode", "Directly"}, "", 1},
		{"the deprecated name", []string{"--no-execute-taint-eviction-purge-mode", "Immediately"}, "", 1},
		{"Never is refused", []string{"--no-execute-taint-eviction-purge-mode", "Never"}, `--no-execute-taint-eviction-purge-mode: want Gracefully or Directly, got "Never"`, 0},
		{"a typo is refused", []string{"--no-execute-taint-eviction-purge-mode", "gracefully"}, `--no-execute-taint-eviction-purge-mode: want Gracefully or Directly, got "gracefully"`, 0},
		{"no timeout", []string{"--graceful-eviction-timeout", "0s"}, "--graceful-eviction-timeout: want more than 0, got 0s", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o failoverFlags
			f := pflag.NewFlagSet("controller", pflag.ContinueOnError)
			o.addFlags(f)
			require.NoError(t, f.Parse(tt.args))
			err := o.check()
			if tt.errMsg != "" {
				assert.EqualError(t, err, tt.errMsg)
				return
			}
			require.NoError(t, err)
			assert.Len(t, o.options(false), tt.options)
		})
	}
}
