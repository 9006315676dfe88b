package interpreter_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// TestLuaAPIFunctionTable holds the function table of docs/lua-api.md,
// the script authors' contract, to the operations' declaration: a row
// per operation, in order, with its key, signature and summary.
func TestLuaAPIFunctionTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/lua-api.md")
	require.NoError(t, err)
	var want strings.Builder
	want.WriteString("| key | function | returns |\n|---|---|---|\n")
	for _, op := range interpreter.Operations() {
		fmt.Fprintf(&want, "| %s | `%s` | %s |\n", op.CustomizationKey(), op.LuaSignature(), op.LuaDoc().Summary)
	}
	assert.True(t, strings.Contains(string(doc), "\n"+want.String()+"\n"),
		"docs/lua-api.md's function table is made from the operations' declaration (operation.go); it should read:\n%s", want.String())
}

// TestContractNamesEveryFunction holds the Go readers' contract, the
// package doc, to the declaration: a line per operation with its key and
// signature.
func TestContractNamesEveryFunction(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, op := range interpreter.Operations() {
		t.Run(op.String(), func(t *testing.T) {
			line := regexp.MustCompile(`(?m)^//\t` + op.CustomizationKey() + ` +` + regexp.QuoteMeta(op.LuaSignature()) + ` -> `)
			assert.Regexp(t, line, string(doc), "doc.go's script contract lists %s %s", op.CustomizationKey(), op.LuaSignature())
		})
	}
}

// TestLuaDocDeclared: every operation declares what its function is told.
func TestLuaDocDeclared(t *testing.T) {
	for _, op := range interpreter.Operations() {
		t.Run(op.String(), func(t *testing.T) {
			d := op.LuaDoc()
			assert.NotEmpty(t, d.Params)
			assert.NotEmpty(t, d.Purpose)
			assert.Len(t, d.Receives, len(strings.Split(d.Params, ", ")), "a line per parameter")
			assert.NotEmpty(t, d.Returns)
			assert.NotEmpty(t, d.Summary)
			assert.NotEmpty(t, op.ResultNames())
		})
	}
}
