package sharedcases

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names a folder to use instead of ../shared/conformance.
const EnvVar = "LUAINTERP_SHARED_CONFORMANCE"

// Dir returns the folder of one suite (as "failover") of the shared
// conformance cases, or skips t when there is none.
func Dir(t testing.TB, suite string) string {
	t.Helper()
	if dir := os.Getenv(EnvVar); dir != "" {
		path := filepath.Join(dir, suite)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s=%s: %v", EnvVar, dir, err)
		}
		return path
	}
	root, err := repoRoot()
	if err != nil {
		t.Skipf("shared conformance cases: %v", err)
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		path := filepath.Join(dir, "shared", "conformance", suite)
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			return path
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	t.Skipf("no shared conformance cases: %s is absent (set %s to run them)",
		filepath.Join(filepath.Dir(root), "shared", "conformance", suite), EnvVar)
	return ""
}

// Cases returns the case folders of one area of a suite, sorted by name.
func Cases(t testing.TB, suite, area string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(Dir(t, suite), area, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, d := range dirs {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			cases = append(cases, d)
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no cases in %s/%s", suite, area)
	}
	return cases
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
