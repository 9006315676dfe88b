package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// A call still running at its deadline is answered then, over HTTP/1
// (late, from the deadline, the connection closed after it) and over
// HTTP/2 (the handler returns): the interpreter here returns only once
// the test has read the answer, which a client would wait for forever
// if it came when the call returned.
func TestHandlerAnswersAtTheDeadline(t *testing.T) {
	tests := []struct {
		name       string
		http2      bool
		wantProto  int
		wantClosed bool
	}{
		{"HTTP/1.1", false, 1, true},
		{"HTTP/2", true, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release, returned := make(chan struct{}), make(chan struct{})
			hung := interpreter.Func(func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
				defer close(returned)
				<-release // past ctx's deadline: a call that does not heed it
				return interpreter.Response{Operation: req.Operation, Healthy: true}, nil
			})
			srv := httptest.NewUnstartedServer(New(hung, WithTimeout(20*time.Millisecond)))
			srv.EnableHTTP2 = tt.http2
			srv.StartTLS()
			defer srv.Close()
			client := srv.Client()
			client.Timeout = 10 * time.Second

			resp, err := client.Post(srv.URL, "application/json", strings.NewReader(review("InterpretHealth", widgetObject, "")))
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			resp.Body.Close()
			select {
			case <-returned:
				t.Fatal("the interpreter returned before the answer was read")
			default:
			}
			close(release)
			<-returned

			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tt.wantProto, resp.ProtoMajor)
			assert.Equal(t, tt.wantClosed, resp.Close, "the connection is closed after a late answer")
			assert.JSONEq(t, answered(`{"uid":"u-1","successful":false,"status":{"code":504,"message":"InterpretHealth: deadline of 20ms exceeded"}}`), string(body))
		})
	}
}
