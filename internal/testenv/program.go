package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// LookPath returns the first of names found on $PATH, for a test that
// runs a program the machine may lack (Chromium, promtool). When none is
// there it skips t, or fails it when the environment variable require is
// "1" (CI sets it after installing the program), saying how to install it.
func LookPath(t testing.TB, require, install string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	missing := "none of " + strings.Join(names, ", ") + " on $PATH (" + install + ")"
	if os.Getenv(require) == "1" {
		t.Fatalf("%s, and %s=1", missing, require)
	}
	t.Skipf("%s; %s=1 makes this a failure", missing, require)
	return ""
}
