package main

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stamp sets the version and commit as `make build` stamps them, for one test.
func stamp(t *testing.T, v, c string) {
	t.Helper()
	oldVersion, oldCommit := version, commit
	version, commit = v, c
	t.Cleanup(func() { version, commit = oldVersion, oldCommit })
}

func TestVersion(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "--version", args: []string{"--version"}},
		{name: "the version command", args: []string{"version"}},
		{name: "-o text", args: []string{"version", "-o", "text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stamp(t, "v1.4.0", "0123abc")
			r := run(t, "", tt.args...)
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, "luainterp v1.4.0 (commit 0123abc, "+runtime.Version()+")\n", r.stdout)
		})
	}
}

func TestVersionJSON(t *testing.T) {
	stamp(t, "v1.4.0", "0123abc")
	r := run(t, "", "version", "-o", "json")
	require.NoError(t, r.err, r.stderr)
	var got buildInfo
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, buildInfo{Version: "v1.4.0", Commit: "0123abc", GoVersion: runtime.Version()}, got)
}

// TestVersionFromBuildInfo: unstamped, the version is the module's as the
// toolchain recorded it ("(devel)" or empty in a test binary, never
// guessed), and the Go version is the one that built the binary.
func TestVersionFromBuildInfo(t *testing.T) {
	stamp(t, "", "")
	r := run(t, "", "version", "-o", "json")
	require.NoError(t, r.err, r.stderr)
	var got buildInfo
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, runtime.Version(), got.GoVersion)
	assert.NotEmpty(t, got.Version)
	assert.NotEmpty(t, got.Commit)
}

func TestVersionBadFormat(t *testing.T) {
	r := run(t, "", "version", "-o", "xml")
	require.Error(t, r.err)
	assert.Equal(t, `--output: unknown format "xml": want text, yaml or json`, r.err.Error())
}
