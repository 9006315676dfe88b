package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
)

func TestPlaygroundFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no such customization", []string{"-f", "no/such/dir"}, "-f: stat no/such/dir: no such file or directory"},
		{"no such object", []string{"--object", "no/such.yaml"}, "--object: open no/such.yaml: no such file or directory"},
		{"bad timeout", []string{"--timeout", "0s"}, "--timeout: want a positive duration, got 0s"},
		{"bad address", []string{"--addr", "127.0.0.1:http-alt-nope"}, "--addr: listen tcp: lookup tcp/http-alt-nope: unknown port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"playground"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, tt.want, r.err.Error())
		})
	}
}

// TestPlaygroundServes runs the command on loopback from a suite folder
// and asks it for answers: the suite's customization answers its kind,
// the built-in handlers a Deployment, as interpret -f would.
func TestPlaygroundServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	cmd := newRootCommand()
	cmd.SetArgs([]string{"playground", "--addr", "127.0.0.1:0", "-f", "../../examples/rabbitmq"})
	cmd.SetOut(w)
	cmd.SetErr(io.Discard)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); w.Close() }()

	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Regexp(t, `^playground: http://127\.0\.0\.1:\d+/ \(loopback only: reachable from this host alone\)\n$`, line)
	url := strings.Fields(line)[1]
	go func() { _, _ = io.Copy(io.Discard, out) }()

	resp, err := http.Get(url + "api/start")
	require.NoError(t, err)
	var start playground.Start
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&start))
	resp.Body.Close()
	assert.Equal(t, "../../examples/rabbitmq", start.Source)

	ask := func(object, op string) playground.Answer {
		body, err := json.Marshal(playground.RunRequest{Customization: start.Customization, Object: object, Operation: op})
		require.NoError(t, err)
		resp, err := http.Post(url+"api/run", "application/json", strings.NewReader(string(body)))
		require.NoError(t, err)
		defer resp.Body.Close()
		var a playground.Answer
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&a))
		require.Nil(t, a.Error)
		return a
	}
	assert.Equal(t, "customization", ask(start.Object, "InterpretReplica").Layer)
	deployment := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  template: {spec: {containers: [{name: web, image: nginx}]}}\n"
	a := ask(deployment, "InterpretReplica")
	assert.Equal(t, "builtin", a.Layer)
	assert.Equal(t, "replica: 2\nrequires: null\n", a.Text)

	cancel()
	require.NoError(t, <-done)
}
