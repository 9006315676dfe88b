package testsuite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/interptest"
)

// goLayer answers every suite with the widget interpreter, whatever its
// customizations say: the Lua layer is tested end to end by the command.
func goLayer(*customization.Set) (interpreter.Interpreter, error) {
	return interptest.Interpreter{}, nil
}

func TestFind(t *testing.T) {
	tests := []struct {
		root string
		want []Found
	}{
		{"testdata/tree", []Found{
			{Name: "core/v1/ConfigMap", Dir: "testdata/tree/core/v1/ConfigMap"},
			{Name: "example.io/v1/Widget", Dir: "testdata/tree/example.io/v1/Widget"},
			{Name: "example.io/v2/Widget", Dir: "testdata/tree/example.io/v2/Widget"},
			{Name: "plain", Dir: "testdata/tree/plain"},
		}},
		{"testdata/tree/plain/", []Found{{Name: "testdata/tree/plain", Dir: "testdata/tree/plain"}}},
		// A suite laid out as <group>/<version>/<Kind> has one name
		// whichever path leads to it, so that --run selects it the same.
		{"testdata/tree/example.io", []Found{
			{Name: "example.io/v1/Widget", Dir: "testdata/tree/example.io/v1/Widget"},
			{Name: "example.io/v2/Widget", Dir: "testdata/tree/example.io/v2/Widget"},
		}},
		{"testdata/tree/example.io/v1/Widget/", []Found{{Name: "example.io/v1/Widget", Dir: "testdata/tree/example.io/v1/Widget"}}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			got, err := Find(tt.root)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestFindNothing(t *testing.T) {
	tests := map[string]string{
		"testdata/passing.yaml": "testdata/passing.yaml: not a directory",
		"testdata/nothing-here": "testdata/nothing-here: no such file or directory",
	}
	for root, want := range tests {
		t.Run(root, func(t *testing.T) {
			_, err := Find(root)
			require.EqualError(t, err, want)
		})
	}
}

func TestFindEmpty(t *testing.T) {
	dir := t.TempDir()
	_, err := Find(dir)
	require.EqualError(t, err, dir+": no suite (a folder with customizations.yaml and testdata/)")
}

func TestFindFS(t *testing.T) {
	fsys := os.DirFS("testdata/tree")
	found, err := FindFS(fsys, "bundled")
	require.NoError(t, err)
	require.Len(t, found, 4)
	assert.Equal(t, Found{Name: "example.io/v1/Widget", Dir: "bundled/example.io/v1/Widget", FS: fsys, Path: "example.io/v1/Widget"}, found[1])

	s, err := Load(found[1], goLayer)
	require.NoError(t, err)
	require.Len(t, s.Cases, 2)
	assert.Equal(t, Source{File: "bundled/example.io/v1/Widget/testdata/health.yaml", Document: 2, Line: 7}, s.Cases[1].Source)
	assert.Equal(t, "bundled/example.io/v1/Widget/customizations.yaml", s.Customizations.Customizations[0].Position.File)

	_, err = Load(found[2], goLayer)
	require.ErrorContains(t, err, "bundled/example.io/v2/Widget/customizations.yaml:2: document 1 \"gadget\": spec.target: does not agree")
}

func TestLoad(t *testing.T) {
	found, err := Find("testdata/tree")
	require.NoError(t, err)
	for _, f := range found {
		if f.Name == "example.io/v2/Widget" {
			continue // TestCheckPath
		}
		t.Run(f.Name, func(t *testing.T) {
			s, err := Load(f, goLayer)
			require.NoError(t, err)
			assert.NotEmpty(t, s.Cases)
			assert.NotEmpty(t, s.Customizations.Customizations)
			assert.Equal(t, interptest.Interpreter{}, s.Interpreter)
		})
	}
}

func TestCheckPath(t *testing.T) {
	_, err := Load(Found{Name: "example.io/v2/Widget", Dir: "testdata/tree/example.io/v2/Widget"}, goLayer)
	require.EqualError(t, err, `testdata/tree/example.io/v2/Widget/customizations.yaml:2: document 1 "gadget": spec.target: `+
		`does not agree with the folder example.io/v2/Widget: the target has version v1, the folder v2; kind Gadget, the folder Widget`)

	set, err := customization.Load("testdata/tree/core/v1/ConfigMap/customizations.yaml")
	require.NoError(t, err)
	err = CheckPath("testdata/tree/plain/testdata/nested-ignored/../../../core/v1/ConfigMap", set)
	require.NoError(t, err, "the core group's folder is core")
	err = CheckPath("testdata/tree/example.io/v1/Widget", set)
	require.EqualError(t, err, `testdata/tree/core/v1/ConfigMap/customizations.yaml:1: document 1 "configmap": spec.target: `+
		`does not agree with the folder example.io/v1/Widget: the target has group "" (the core group, folder core), the folder example.io; kind ConfigMap, the folder Widget`)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(Found{Name: "empty", Dir: dir}, goLayer)
	require.EqualError(t, err, filepath.Join(dir, "customizations.yaml")+": no such file or directory\n"+
		filepath.Join(dir, "testdata")+": no test case files (*.yaml)")

	broken := errors.New("script does not compile")
	_, err = Load(Found{Name: "plain", Dir: "testdata/tree/plain"}, func(*customization.Set) (interpreter.Interpreter, error) {
		return nil, broken
	})
	require.ErrorIs(t, err, broken)
}

func TestSuiteRun(t *testing.T) {
	s, err := Load(Found{Name: "example.io/v1/Widget", Dir: "testdata/tree/example.io/v1/Widget"}, goLayer)
	require.NoError(t, err)

	var seen []string
	results := s.Run(context.Background(), regexp.MustCompile(`Health/deg`), func(r *Result) {
		seen = append(seen, r.Name+" "+string(r.Status))
	})
	require.Len(t, results, 2)
	assert.Equal(t, []string{
		"example.io/v1/Widget/InterpretHealth/ready skip",
		"example.io/v1/Widget/InterpretHealth/degraded pass",
	}, seen)
	assert.Same(t, s.Cases[0], results[0].Case)

	results = s.Run(context.Background(), nil, nil)
	assert.Equal(t, Pass, results[0].Status)
	assert.Equal(t, Pass, results[1].Status)
}

func TestLoadUnreadableFile(t *testing.T) {
	dir := "../testdata/suites/broken/bad-case"
	s, err := Load(Found{Name: "bad-case", Dir: dir}, goLayer)
	require.NoError(t, err, "a test file that cannot be read fails its own cases, not the suite")
	results := s.Run(context.Background(), nil, nil)
	var got []string
	for _, r := range results {
		got = append(got, string(r.Status)+" "+r.Name+" "+strings.Join(r.Failures, "; "))
	}
	assert.Equal(t, []string{
		"pass bad-case/InterpretHealth/ready is healthy ",
		"fail bad-case/InterpretHealth/misspelt output InterpretHealth failed: status.phase: not set", // run, its output ignored
		"fail bad-case/testdata/unparsable.yaml document 1 invalid YAML: did not find expected ',' or ']'",
	}, got)
	assert.Len(t, s.Cases[1].Warnings, 1)

	s, err = Load(Found{Name: "bad-case", Dir: dir}, goLayer, Strict())
	require.NoError(t, err)
	// A case Strict refuses keeps its name: --run selects it by that name,
	// and it fails rather than being skipped.
	results = s.Run(context.Background(), regexp.MustCompile(`^bad-case/InterpretHealth/misspelt output$`), nil)
	require.Len(t, results, 3)
	assert.Equal(t, "bad-case/InterpretHealth/misspelt output", results[1].Name)
	assert.Equal(t, Fail, results[1].Status)
	assert.Equal(t, []string{`line 10: ouput: unknown field, did you mean "output"?`}, results[1].Failures)
	var fieldErr *FieldError
	require.ErrorAs(t, results[1].Case.Err, &fieldErr)
	assert.Equal(t, UnknownField, fieldErr.Problem)
}
