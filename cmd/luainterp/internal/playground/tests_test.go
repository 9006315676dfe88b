package playground_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
)

func TestTestCases(t *testing.T) {
	srv, st := start(t)
	t.Run("starter passes", func(t *testing.T) {
		var got playground.TestReport
		require.Equal(t, http.StatusOK, post(t, srv, "/api/test", playground.TestRequest{Customization: st.Customization, Tests: st.Tests}, &got))
		assert.Equal(t, 3, got.Passed)
		assert.Equal(t, 0, got.Failed)
		hits := map[int]int{}
		for _, h := range got.Coverage {
			hits[h.Line] = h.Hits
		}
		assert.Equal(t, 1, hits[15], "GetReplicas' first line ran once")
		assert.Equal(t, 0, hits[29], "Retain's body never ran")
	})
	t.Run("a failure says why", func(t *testing.T) {
		var got playground.TestReport
		tests := strings.Replace(st.Tests, "replica: 3", "replica: 4", 1)
		require.Equal(t, http.StatusOK, post(t, srv, "/api/test", playground.TestRequest{Customization: st.Customization, Tests: tests}, &got))
		require.Equal(t, 1, got.Failed)
		assert.False(t, got.Cases[0].Passed)
		assert.Equal(t, "InterpretReplica/three replicas of 250m", got.Cases[0].Name)
		assert.Contains(t, got.Cases[0].Differences, "path: replica")
	})
	t.Run("a customization that does not load", func(t *testing.T) {
		var got playground.TestReport
		require.Equal(t, http.StatusOK, post(t, srv, "/api/test", playground.TestRequest{Customization: "kind: [", Tests: st.Tests}, &got))
		require.NotNil(t, got.Error)
		assert.Equal(t, "customization", got.Error.Input)
		assert.Empty(t, got.Cases)
	})
	t.Run("an unreadable case fails alone", func(t *testing.T) {
		var got playground.TestReport
		tests := st.Tests + "---\nname: [\n"
		require.Equal(t, http.StatusOK, post(t, srv, "/api/test", playground.TestRequest{Customization: st.Customization, Tests: tests}, &got))
		assert.Equal(t, 3, got.Passed)
		assert.Equal(t, 1, got.Failed)
	})
}

func TestSaveAsTestCase(t *testing.T) {
	srv, st := start(t)
	var saved struct{ YAML string }
	req := playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "ReviseReplica", Replicas: 4, Name: "four"}
	require.Equal(t, http.StatusOK, post(t, srv, "/api/testcase", req, &saved))
	assert.True(t, strings.HasPrefix(saved.YAML, "name: four\noperation: ReviseReplica\nobservedObj:\n"), saved.YAML)
	assert.Contains(t, saved.YAML, "inputReplicas: 4\noutput:\n  revised:\n")

	var got playground.TestReport
	require.Equal(t, http.StatusOK, post(t, srv, "/api/test", playground.TestRequest{Customization: st.Customization, Tests: saved.YAML}, &got))
	assert.Equal(t, 1, got.Passed, "the saved case passes as saved")

	var refused struct{ Error playground.Error }
	req.Object = "kind: ["
	require.Equal(t, http.StatusBadRequest, post(t, srv, "/api/testcase", req, &refused))
	assert.Equal(t, "the operation fails, so there is no answer to save: object:1: document 1: invalid YAML: did not find expected node content", refused.Error.Message)
}

func TestLoadStart(t *testing.T) {
	st, err := playground.LoadStart("../../../../examples/rabbitmq", "")
	require.NoError(t, err)
	assert.Contains(t, st.Customization, "kind: RabbitmqCluster")
	assert.Contains(t, st.Tests, "operation: InterpretDependency")
	assert.Contains(t, st.Object, "kind: RabbitmqCluster")

	_, err = playground.LoadStart("no/such/dir", "")
	assert.EqualError(t, err, "-f: stat no/such/dir: no such file or directory")
	_, err = playground.LoadStart("", "no/such/object.yaml")
	assert.EqualError(t, err, "--object: open no/such/object.yaml: no such file or directory")
}
