package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEConsole runs the README's console blocks as written, in order,
// in a fresh folder that sees the repository's testdata and examples, with
// the luainterp built from this tree first on PATH: each command must exit
// 0 and print what the README shows under it.
func TestREADMEConsole(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	blocks := consoleBlocks(string(readme))
	require.NotEmpty(t, blocks, "the README has console blocks")

	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, name := range []string{"testdata", "examples", "scripts", "deploy"} {
		require.NoError(t, os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)))
	}
	path := filepath.Dir(binary(t)) + string(os.PathListSeparator) + os.Getenv("PATH")

	for _, block := range blocks {
		for _, c := range block {
			cmd := exec.Command("sh", "-c", c.cmd)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+path)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			require.NoError(t, err, "README.md:%d: %s\n%s", c.line, c.cmd, stderr.String())
			got := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			assert.True(t, matchOutput(c.output, got), "README.md:%d: %s\nthe README shows:\n%s\nit printed:\n%s",
				c.line, c.cmd, strings.Join(c.output, "\n"), strings.Join(got, "\n"))
		}
	}
}

// TestConsoleOutputMatch holds the README matcher to its rules.
func TestConsoleOutputMatch(t *testing.T) {
	assert.True(t, matchOutput([]string{"a", "...", "d"}, []string{"a", "b", "c", "d"}))
	assert.True(t, matchOutput([]string{"a", "...", "b"}, []string{"a", "b"}))
	assert.True(t, matchOutput([]string{"--- PASS: x (0.00s)"}, []string{"--- PASS: x (0.12s)"}))
	assert.False(t, matchOutput([]string{"a", "...", "d"}, []string{"a", "b", "c"}))
	assert.False(t, matchOutput([]string{"a"}, []string{"a", "b"}))
	assert.False(t, matchOutput([]string{"replica: 3"}, []string{"replica: 4"}))
}

var markdownLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// TestDocsLinks checks that every file the README and docs/ link to exists.
func TestDocsLinks(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	for _, doc := range append(docs, "../../README.md", "../../examples/README.md") {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range markdownLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			_, err := os.Stat(filepath.Join(filepath.Dir(doc), target))
			assert.NoError(t, err, "%s links to %s", doc, target)
		}
	}
}
