package depgraph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is the import path of the repository's module.
const module = "github.com/luainterp/luainterp"

// pkg is a package as `go list -json` describes it.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// listPackages returns every package of the module, by import path.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	require.NoError(t, err, "the go command reads the package graph")
	cmd := exec.Command(goCmd, "list", "-json=ImportPath,Dir,GoFiles,Imports,Deps", "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		pkgs[p.ImportPath] = p
		// go test caches a result by the files the test opened or
		// looked at; a look at each source file reruns it after an
		// edit.
		for _, f := range p.GoFiles {
			_, _ = os.Stat(filepath.Join(p.Dir, f))
		}
	}
	_, _ = os.Stat("../../go.mod")
	require.Contains(t, pkgs, module+"/interpreter", "go list ran in the module's root")
	return pkgs
}

// under says whether path is prefix or a package below it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// TestProtocolStackLinksNoLuaVM: the webhook client and server and the
// circuit breaker depend on no Lua VM package, directly or not.
func TestProtocolStackLinksNoLuaVM(t *testing.T) {
	pkgs := listPackages(t)
	forbidden := []string{"github.com/yuin/gopher-lua", "layeh.com/gopher-luar", module + "/interpreter/luavm"}
	for _, name := range []string{"webhook/client", "webhook/server", "interpreter/breaker"} {
		t.Run(name, func(t *testing.T) {
			p, ok := pkgs[module+"/"+name]
			require.True(t, ok, "the package exists")
			for _, dep := range p.Deps {
				for _, f := range forbidden {
					require.False(t, under(dep, f), "%s depends on %s", name, dep)
				}
			}
		})
	}
}
