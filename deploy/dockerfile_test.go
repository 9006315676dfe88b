package deploy_test

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dockerfile is the instructions of ../Dockerfile, one a line.
func dockerfile(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	require.NoError(t, err)
	defer f.Close()
	var lines []string
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		if line := strings.TrimSpace(scan.Text()); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	require.NoError(t, scan.Err())
	return lines
}

// TestDockerfile checks what can be checked without a container runtime
// or a registry (neither is here): the builder's Go is the module's, the
// final stage runs as non-root, and the Dockerfile's go build command,
// run here as written (only its output path changed), makes a static
// binary stamped with the build arguments.
func TestDockerfile(t *testing.T) {
	lines := dockerfile(t)
	var froms, builds []string
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "FROM "):
			froms = append(froms, line)
		case strings.HasPrefix(line, "RUN ") && strings.Contains(line, "go build"):
			builds = append(builds, strings.TrimPrefix(line, "RUN "))
		}
	}
	require.Len(t, froms, 2, "a builder stage and a final stage")
	require.Len(t, builds, 1)

	t.Run("the builder's Go is the module's", func(t *testing.T) {
		data, err := os.ReadFile("../go.mod")
		require.NoError(t, err)
		var goVersion string
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "go "); ok {
				goVersion = strings.Join(strings.SplitN(v, ".", 3)[:2], ".") // 1.26.0 → 1.26
			}
		}
		require.NotEmpty(t, goVersion, "no go directive in go.mod")
		assert.Equal(t, "FROM golang:"+goVersion+" AS build", froms[0])
	})
	t.Run("the final stage is static and non-root", func(t *testing.T) {
		assert.Equal(t, "FROM gcr.io/distroless/static-debian12:nonroot", froms[1])
		assert.Equal(t, "USER nonroot:nonroot", lines[len(lines)-2])
		assert.Equal(t, `ENTRYPOINT ["/luainterp"]`, lines[len(lines)-1])
	})
	t.Run("its go build makes a static, stamped binary", func(t *testing.T) {
		build := builds[0]
		require.True(t, strings.HasPrefix(build, "CGO_ENABLED=0 go build -trimpath "), build)
		require.Contains(t, build, " -o /out/luainterp ")
		bin := filepath.Join(t.TempDir(), "luainterp")
		cmd := exec.Command("sh", "-c", strings.Replace(build, " -o /out/luainterp ", " -o "+bin+" ", 1))
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "VERSION=v0.0.0-dockerfile-test", "COMMIT=0123abc")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s\n%s", cmd, out)

		f, err := elf.Open(bin)
		require.NoError(t, err)
		defer f.Close()
		for _, p := range f.Progs {
			assert.NotEqual(t, elf.PT_INTERP, p.Type, "the binary asks for a dynamic loader")
			assert.NotEqual(t, elf.PT_DYNAMIC, p.Type, "the binary has a dynamic section")
		}
		libs, err := f.ImportedLibraries()
		require.NoError(t, err)
		assert.Empty(t, libs)

		version, err := exec.Command(bin, "version").CombinedOutput()
		require.NoError(t, err, "%s", version)
		assert.Contains(t, string(version), "v0.0.0-dockerfile-test")
		assert.Contains(t, string(version), "0123abc")
	})
}
