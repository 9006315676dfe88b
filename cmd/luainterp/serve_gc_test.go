package main

import (
	"runtime/debug"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApplyGCPercent sets the collector's target from --gc-percent and
// GOGC, and reads it back from the runtime.
func TestApplyGCPercent(t *testing.T) {
	previous := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(previous) })
	tests := []struct {
		name    string
		args    []string
		gogc    string
		applied int
		runtime int // the runtime's target afterwards
	}{
		{"the default", nil, "", defaultGCPercent, defaultGCPercent},
		{"GOGC set, no flag", nil, "200", -1, 100},
		{"the flag over GOGC", []string{"--gc-percent", "300"}, "200", 300, 300},
		{"0 leaves Go's own", []string{"--gc-percent", "0"}, "", -1, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			t.Setenv("GOGC", tt.gogc)
			f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
			var percent int
			addGCFlag(f, &percent)
			require.NoError(t, f.Parse(tt.args))
			applied, err := applyGCPercent(f, percent)
			require.NoError(t, err)
			assert.Equal(t, tt.applied, applied)
			assert.Equal(t, tt.runtime, debug.SetGCPercent(100), "the runtime's target")
		})
	}
	t.Run("a negative target", func(t *testing.T) {
		f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
		var percent int
		addGCFlag(f, &percent)
		require.NoError(t, f.Parse([]string{"--gc-percent", "-1"}))
		_, err := applyGCPercent(f, percent)
		require.EqualError(t, err, "--gc-percent -1: must be 0 or more")
	})
}
