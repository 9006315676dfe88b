package testsuite

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/testsuite/compare"
)

func TestRunPassing(t *testing.T) {
	cases, err := ReadFile("testdata/passing.yaml")
	require.NoError(t, err)
	require.Len(t, cases, 9)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := Run(context.Background(), interptest.Interpreter{}, c)
			assert.Empty(t, r.Failures)
			assert.Empty(t, r.Differences)
			assert.Equal(t, Pass, r.Status)
		})
	}
}

func TestRunUnchecked(t *testing.T) {
	cases, err := ReadFile("testdata/passing.yaml")
	require.NoError(t, err)
	want := map[string][]string{
		"a result the case does not name is unchecked": {"requires"},
		"no output passes when the operation succeeds": {"healthy"},
		"an expected error":                            nil,
	}
	for name, unchecked := range want {
		t.Run(name, func(t *testing.T) {
			r := Run(context.Background(), interptest.Interpreter{}, caseNamed(t, cases, name))
			assert.Equal(t, unchecked, r.Unchecked)
		})
	}
}

func TestRunFailing(t *testing.T) {
	cases, err := ReadFile("testdata/failing.yaml")
	require.NoError(t, err)
	tests := []struct {
		name     string
		failures []string
		diff     string
	}{
		{
			name: "wrong replica count",
			diff: "replica:\n- 4\n+ 3\nrequires.resourceRequest.cpu:\n- \"1\"\n+ 1500m\n",
		},
		{
			name:     "output key the operation does not produce",
			failures: []string{`output key "replicas" is not a result of InterpretReplica, which produces replica, requires`},
		},
		{
			name:     "unexpected error",
			failures: []string{"InterpretHealth failed: status.phase: not set"},
		},
		{
			name:     "expected error that does not come",
			failures: []string{"InterpretHealth succeeded, expected an error"},
		},
		{
			name:     "error with other text",
			failures: []string{`InterpretHealth failed with "status.phase: not set", expected an error containing "not found"`},
		},
		{
			name:     "operation the interpreter does not answer",
			failures: []string{"InterpretComponent failed: InterpretComponent hook for example.io/v1, Kind=Gadget not found"},
		},
		{
			name:     "interpreter that modifies its input",
			failures: []string{"InterpretReplica modified its input object"},
		},
		{
			name: "missing and unexpected dependencies",
			diff: "dependencies[0].name:\n- beta\n+ delta\n",
		},
	}
	require.Len(t, cases, len(tests)+1) // and the panic, below
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(context.Background(), interptest.Interpreter{}, caseNamed(t, cases, tt.name))
			assert.Equal(t, Fail, r.Status)
			assert.Equal(t, tt.failures, r.Failures)
			assert.Equal(t, tt.diff, compare.Format(r.Differences))
		})
	}
	t.Run("interpreter that panics", func(t *testing.T) {
		r := Run(context.Background(), interptest.Interpreter{}, caseNamed(t, cases, "interpreter that panics"))
		assert.Equal(t, Fail, r.Status)
		require.Len(t, r.Failures, 1)
		first, _, _ := strings.Cut(r.Failures[0], "\n")
		assert.Equal(t, "InterpretHealth failed: panic: widget: panicking on purpose", first)
	})
}

func caseNamed(t *testing.T, cases []*Case, name string) *Case {
	t.Helper()
	for _, c := range cases {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case named %q", name)
	return nil
}
