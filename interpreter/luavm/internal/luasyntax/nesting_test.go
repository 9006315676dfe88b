package luasyntax

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckNesting(t *testing.T) {
	deep := strings.Repeat("(", maxNesting+1)
	tests := []struct {
		name, source string
		line         int // 0: accepted
	}{
		{"shallow", "local t = {a = {b = (1 + (2))}, [1] = 2}", 0},
		{"exactly the limit", "local x = " + strings.Repeat("(", maxNesting) + "1" + strings.Repeat(")", maxNesting), 0},
		{"past the limit", "local x = 1\nlocal y = " + deep, 2},
		{"brackets in a string", `local s = "` + deep + `"`, 0},
		{"brackets in a single-quoted string with escapes", `local s = '\'` + deep + `'`, 0},
		{"brackets in a long string", "local s = [==[\n" + deep + "]] still inside ]==]", 0},
		{"brackets in a comment", "-- " + deep + "\nlocal x = 1", 0},
		{"brackets in a long comment", "--[[\n" + deep + "\n]] local x = 1", 0},
		{"lines counted through long strings", "local s = [[\n\n]]\n" + deep, 4},
		{"index brackets count", "local x = t" + strings.Repeat("[t", maxNesting+1), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckNesting(tt.source)
			if tt.line == 0 {
				require.NoError(t, err)
				return
			}
			var ne *NestingError
			require.ErrorAs(t, err, &ne)
			assert.Equal(t, tt.line, ne.Line)
			assert.Equal(t, "syntax error: brackets nest deeper than 200 levels", ne.Error())
		})
	}
}
