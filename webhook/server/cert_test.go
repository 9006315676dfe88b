package server

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/webhook/internal/testcert"
)

// writePair writes a certificate and key, dated at so that a reload sees the change.
func writePair(t *testing.T, certFile, keyFile string, certPEM, keyPEM []byte, at time.Time) {
	t.Helper()
	require.NoError(t, os.WriteFile(certFile, certPEM, 0o600))
	require.NoError(t, os.WriteFile(keyFile, keyPEM, 0o600))
	require.NoError(t, os.Chtimes(certFile, at, at))
	require.NoError(t, os.Chtimes(keyFile, at, at))
}

func TestCertReloader(t *testing.T) {
	ca := testcert.NewCA(t, "test CA")
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	certPEM, keyPEM := ca.Serving(t, "127.0.0.1")
	writePair(t, certFile, keyFile, certPEM, keyPEM, time.Now().Add(-time.Hour))

	reloader, err := NewCertReloader(certFile, keyFile)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: NewMux(New(interptest.Interpreter{}), nil, nil), TLSConfig: reloader.TLSConfig()}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	defer srv.Close()

	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ca.PEM))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}}
	served := func() []byte {
		t.Helper()
		resp, err := client.Get("https://" + ln.Addr().String() + HealthzPath)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		return resp.TLS.PeerCertificates[0].Raw
	}
	first := served()
	assert.Equal(t, first, served(), "an unchanged pair is not reloaded")

	renewedPEM, renewedKey := ca.Serving(t, "127.0.0.1")
	writePair(t, certFile, keyFile, renewedPEM, renewedKey, time.Now())
	renewed := served()
	assert.NotEqual(t, first, renewed, "a renewed pair is served")

	require.NoError(t, os.WriteFile(certFile, []byte("half written"), 0o600))
	assert.Equal(t, renewed, served(), "a broken pair keeps the previous certificate")
}

func TestCertReloaderErrors(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	_, err := NewCertReloader(certFile, keyFile)
	require.True(t, errors.Is(err, os.ErrNotExist), "got %v", err)

	require.NoError(t, os.WriteFile(certFile, []byte("not PEM"), 0o600))
	require.NoError(t, os.WriteFile(keyFile, []byte("not PEM"), 0o600))
	_, err = NewCertReloader(certFile, keyFile)
	require.EqualError(t, err, "loading TLS certificate "+certFile+" and key "+keyFile+
		": tls: failed to find any PEM data in certificate input")
}
