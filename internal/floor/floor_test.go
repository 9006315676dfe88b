package floor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const answer = `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":{"uid":"bench-1","successful":true,"replicas":3}}`

func TestNewTemplate(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		wantErr bool
	}{
		{"the uid once", answer, false},
		{"no uid", strings.Replace(answer, `"uid":"bench-1",`, "", 1), true},
		{"another uid", strings.Replace(answer, "bench-1", "bench-2", 1), true},
		{"the uid twice", strings.Replace(answer, `"replicas":3`, `"uid":"bench-1"`, 1), true},
		{"no kind", strings.Replace(answer, `"kind":"ResourceInterpreterContext",`, "", 1), true},
		{"not JSON", `"uid":"bench-1"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewTemplate([]byte(tt.answer), "bench-1")
			assert.Equal(t, tt.wantErr, err != nil, "%v", err)
		})
	}
}

func TestHandler(t *testing.T) {
	template, err := NewTemplate([]byte(answer), "bench-1")
	require.NoError(t, err)
	srv := httptest.NewServer(Handler(template))
	defer srv.Close()
	tests := []struct {
		name       string
		body       string
		wantStatus int
		want       string
	}{
		{"a request", `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{"uid":"u-\"2\"","operation":"InterpretReplica","object":{"kind":"Pod"}}}`,
			http.StatusOK, strings.Replace(answer, `"bench-1"`, `"u-\"2\""`, 1)},
		{"no request", `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext"}`,
			http.StatusBadRequest, "not a ResourceInterpreterContext request\n"},
		{"not JSON", `{`, http.StatusBadRequest, "not a ResourceInterpreterContext request\n"},
		{"another kind", `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterWebhookConfiguration","request":{"uid":"u-3"}}`,
			http.StatusBadRequest, "not a ResourceInterpreterContext request\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(tt.body))
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, resp.StatusCode)
			assert.Equal(t, tt.want, string(body))
		})
	}
}
