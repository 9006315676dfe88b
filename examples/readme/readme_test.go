package readme_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleIsTheREADME checks that every line of the Go snippets of the
// README's library section is a line of Example, in the same order
// (blanks between words aside), so the snippets compile as written.
func TestExampleIsTheREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	example, err := os.ReadFile("example_test.go")
	require.NoError(t, err)

	section := string(readme)
	start := strings.Index(section, "\n## The library\n")
	require.GreaterOrEqual(t, start, 0, "the README has a library section")
	section = section[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	snippets := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(section, -1)
	require.NotEmpty(t, snippets)

	var body []string
	for line := range strings.Lines(string(example)) {
		body = append(body, normal(line))
	}
	at := 0
	for _, snippet := range snippets {
		for line := range strings.Lines(snippet[1]) {
			want := normal(line)
			if want == "" {
				continue
			}
			found := false
			for ; at < len(body); at++ {
				if body[at] == want {
					found = true
					break
				}
			}
			assert.True(t, found, "README line %q is not in Example, or out of order", strings.TrimSpace(line))
			if !found {
				return
			}
		}
	}
}

// normal is line with its blanks collapsed and trimmed.
func normal(line string) string { return strings.Join(strings.Fields(line), " ") }
