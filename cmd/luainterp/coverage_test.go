package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// branchSuite writes a suite whose health script has a one-line if, and
// one case that does not take its branch; it returns the suite's folder.
func branchSuite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "customizations.yaml"), []byte(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          if obj.status == nil then return false end
          return obj.status.ready
        end
`), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "testdata"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "testdata", "health.yaml"), []byte(`name: ready
operation: InterpretHealth
observedObj: {apiVersion: example.io/v1, kind: Widget, metadata: {name: w}, status: {ready: true}}
output:
  healthy: true
`), 0o644))
	return dir
}

// TestCoverageBranches: the one-line if ran, but its branch did not, so
// its line does not count as run.
func TestCoverageBranches(t *testing.T) {
	dir := branchSuite(t)
	stdout, stderr, code := runTest(t, "--coverage-listing", dir)
	require.Equal(t, 0, code, stdout+stderr)
	custom := filepath.Join(dir, "customizations.yaml")
	assert.Equal(t, "--- PASS: "+dir+"/InterpretHealth/ready (0.00s)\n"+
		"coverage:\n"+
		"    "+dir+": widget healthInterpretation: 2 of 3 lines (66.7%), 1 of 2 branches "+custom+":12\n"+
		"           1      2 | function InterpretHealth(obj)\n"+
		"           2      1 |   if obj.status == nil then return false end    <- never took: then\n"+
		"           3      1 |   return obj.status.ready\n"+
		"           4      - | end\n"+
		"total: 2 of 3 lines (66.7%), 1 of 1 hooks exercised\n"+
		"1 passed, 0 failed\n", stdout)
}

func TestCoverageOut(t *testing.T) {
	dir := branchSuite(t)
	custom := filepath.Join(dir, "customizations.yaml")
	t.Run("lcov", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "lcov.info")
		_, stderr, code := runTest(t, "--coverage-out", out, dir)
		require.Equal(t, 0, code, stderr)
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.Equal(t, "TN:luainterp\nSF:"+custom+"\nDA:12,2\nDA:13,0\nDA:14,1\nBRDA:13,0,0,0\nBRDA:13,0,1,1\nBRF:2\nBRH:1\nLF:3\nLH:2\nend_of_record\n", string(data))
	})
	t.Run("Cobertura", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "coverage.xml")
		_, stderr, code := runTest(t, "--coverage-out", out, dir)
		require.Equal(t, 0, code, stderr)
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		var doc struct {
			LineRate   string `xml:"line-rate,attr"`
			BranchRate string `xml:"branch-rate,attr"`
			Classes    []struct {
				Name     string `xml:"name,attr"`
				Filename string `xml:"filename,attr"`
				Lines    []struct {
					Number    int    `xml:"number,attr"`
					Hits      int    `xml:"hits,attr"`
					Condition string `xml:"condition-coverage,attr"`
				} `xml:"lines>line"`
			} `xml:"packages>package>classes>class"`
		}
		require.NoError(t, xml.Unmarshal(data, &doc))
		assert.Equal(t, "0.6667", doc.LineRate)
		assert.Equal(t, "0.5000", doc.BranchRate)
		require.Len(t, doc.Classes, 1)
		assert.Equal(t, "widget/healthInterpretation", doc.Classes[0].Name)
		assert.Equal(t, custom, doc.Classes[0].Filename)
		require.Len(t, doc.Classes[0].Lines, 3)
		assert.Equal(t, 13, doc.Classes[0].Lines[1].Number)
		assert.Equal(t, "50% (1/2)", doc.Classes[0].Lines[1].Condition)
	})
	t.Run("an unwritable file", func(t *testing.T) {
		r := run(t, "", "test", "--coverage-out", filepath.Join(t.TempDir(), "no", "lcov.info"), dir)
		require.Error(t, r.err)
		assert.Regexp(t, `^--coverage-out: open .*/no/lcov.info: no such file or directory$`, r.err.Error())
	})
}

func TestCoverageMin(t *testing.T) {
	dir := branchSuite(t)
	t.Run("under the threshold fails", func(t *testing.T) {
		stdout, stderr, code := runTest(t, "--coverage-min", "80", dir)
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "1 passed, 0 failed\n")
		assert.Equal(t, "coverage: 66.67% of the scripts' lines ran, under --coverage-min 80%\n", stderr)
	})
	t.Run("at or over it passes", func(t *testing.T) {
		_, stderr, code := runTest(t, "--coverage-min", "66.5", dir)
		assert.Equal(t, 0, code, stderr)
		assert.Empty(t, stderr)
	})
	t.Run("not a percentage", func(t *testing.T) {
		r := run(t, "", "test", "--coverage-min", "150", dir)
		require.Error(t, r.err)
		assert.Equal(t, "--coverage-min: 150 is not a percentage from 0 to 100", r.err.Error())
	})
}
