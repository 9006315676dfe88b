package manifest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyntaxErrorLine: a YAML error is reported on the line the parser
// failed on, with that line and a caret, not on the line of the mapping
// it was parsing.
func TestSyntaxErrorLine(t *testing.T) {
	deployment := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n" +
		"  template:\n    spec:\n      containers:\n      - name: web\n        ports:\n"
	tests := []struct {
		name, data, err, detail string
	}{
		{
			name:   "a key out of its mapping",
			data:   "---\n" + deployment + "       - containerPort: 80\n",
			err:    "f.yaml:13: document 1: invalid YAML: did not find expected key",
			detail: "    13 |        - containerPort: 80\n       |        ^",
		},
		{
			name:   "a tab the parser does not name",
			data:   deployment + "\t- containerPort: 80\n",
			err:    "f.yaml:12: document 1: invalid YAML: found character that cannot start any token (this line is indented with a tab; YAML indents with spaces only)",
			detail: "    12 | \t- containerPort: 80\n       | ^",
		},
		{
			name:   "a tab",
			data:   "a:\n  b: 1\n \tc: 2\n",
			err:    "f.yaml:3: document 1: invalid YAML: found a tab character that violates indentation",
			detail: "     3 |  \tc: 2\n       |  ^",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tt.data))
			require.EqualError(t, err, tt.err)
			var se *SyntaxError
			require.True(t, errors.As(err, &se))
			assert.Equal(t, tt.detail, se.Detail())
		})
	}
}
