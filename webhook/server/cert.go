package server

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"
)

// CertReloader serves a TLS certificate and key from files, loading them
// again when either file changes on disk, as they do when cert-manager or a
// mounted Secret renews them. A renewal that cannot be loaded (a half-written
// pair) keeps the previous certificate until the files are whole again.
type CertReloader struct {
	certFile, keyFile string

	mu       sync.Mutex
	cert     *tls.Certificate
	modified [2]time.Time // of certFile and keyFile when cert was loaded
}

// NewCertReloader loads the certificate and key, failing when they cannot be.
func NewCertReloader(certFile, keyFile string) (*CertReloader, error) {
	r := &CertReloader{certFile: certFile, keyFile: keyFile}
	if _, err := r.GetCertificate(nil); err != nil {
		return nil, err
	}
	return r, nil
}

// GetCertificate is the tls.Config.GetCertificate of the reloader.
func (r *CertReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	modified, err := r.modTimes()
	if r.cert != nil && (err != nil || modified == r.modified) {
		return r.cert, nil
	}
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		if r.cert != nil {
			return r.cert, nil
		}
		return nil, fmt.Errorf("loading TLS certificate %s and key %s: %w", r.certFile, r.keyFile, err)
	}
	r.cert, r.modified = &cert, modified
	return r.cert, nil
}

// TLSConfig returns a server configuration serving the reloader's certificate.
func (r *CertReloader) TLSConfig() *tls.Config {
	return &tls.Config{GetCertificate: r.GetCertificate, MinVersion: tls.VersionTLS12}
}

func (r *CertReloader) modTimes() ([2]time.Time, error) {
	var times [2]time.Time
	for i, f := range []string{r.certFile, r.keyFile} {
		info, err := os.Stat(f)
		if err != nil {
			return times, err
		}
		times[i] = info.ModTime()
	}
	return times, nil
}
