package depgraph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is the import path of the repository's module.
const module = "github.com/luainterp/luainterp"

// pkg is a package as `go list -json` describes it.
type pkg struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
}

// listPackages returns every package of the module, by import path.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	require.NoError(t, err, "the go command reads the package graph")
	cmd := exec.Command(goCmd, "list", "-json=ImportPath,Dir,GoFiles,Imports,TestImports,XTestImports,Deps", "./...")
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

// TestFloors: no package imports one of a floor above its own. The
// ground floor, internal/, imports none of the framework or what is
// built on it, not even in its tests (a test double or a CLI piece that
// needs a higher package lives beside what it serves); it may import
// deploy/crds, the CRD files, which import nothing of the module. The
// framework, interpreter/, imports none of the packages built on it.
func TestFloors(t *testing.T) {
	pkgs := listPackages(t)
	higher := func(floors ...string) func(string) bool {
		return func(path string) bool {
			for _, f := range floors {
				if under(path, module+"/"+f) {
					return true
				}
			}
			return false
		}
	}
	tests := []struct {
		floor     string
		withTests bool
		above     func(string) bool
	}{
		{"internal", true, higher("interpreter", "webhook", "testsuite", "binding", "builtin", "kube", "scripts", "failover", "cmd", "examples", "hack")},
		{"interpreter", false, higher("builtin", "scripts", "binding", "webhook", "testsuite", "kube", "failover", "cmd", "examples", "hack", "deploy")},
	}
	for _, tt := range tests {
		t.Run(tt.floor, func(t *testing.T) {
			found := false
			for path, p := range pkgs {
				if !under(path, module+"/"+tt.floor) {
					continue
				}
				found = true
				imports := p.Imports
				if tt.withTests {
					imports = append(append(imports, p.TestImports...), p.XTestImports...)
				}
				for _, imp := range imports {
					if tt.above(imp) {
						t.Errorf("%s imports %s, a floor above its own", strings.TrimPrefix(path, module+"/"), strings.TrimPrefix(imp, module+"/"))
					}
				}
			}
			require.True(t, found, "the floor has packages")
		})
	}
}

// TestSyntaxTreeStaysInLuasyntax: the engine's passes over gopher-lua's
// syntax tree are one package; nothing else imports the tree, not the
// run-time library (lualib) nor the engine itself, in code or tests.
func TestSyntaxTreeStaysInLuasyntax(t *testing.T) {
	const tree = "github.com/yuin/gopher-lua/ast"
	syntax := module + "/interpreter/luavm/internal/luasyntax"
	pkgs := listPackages(t)
	require.Contains(t, pkgs[syntax].Imports, tree, "the syntax package reads the tree")
	for path, p := range pkgs {
		if path == syntax {
			continue
		}
		imports := append(append(p.Imports, p.TestImports...), p.XTestImports...)
		if slices.Contains(imports, tree) {
			t.Errorf("%s imports %s: its walk belongs in luasyntax", strings.TrimPrefix(path, module+"/"), tree)
		}
	}
}
