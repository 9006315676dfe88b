package manifest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxURLBytes bounds what a Reader reads from one URL.
const MaxURLBytes = 64 << 20

// defaultClient fetches URLs for a Reader without a Client.
var defaultClient = &http.Client{Timeout: 30 * time.Second}

// IsURL reports whether a path is an http:// or https:// URL, which a
// Reader fetches instead of opening.
func IsURL(path string) bool {
	return strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://")
}

// fetch GETs a URL: its body is the file, named by the URL. A status other
// than 200 is an error, and so is a body past MaxURLBytes.
func (r *Reader) fetch(rawURL string) (File, *Error) {
	fail := func(err error) (File, *Error) { return File{}, &Error{Source: Source{File: rawURL}, Err: err} }
	client := r.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Get(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // not repeating the URL
		}
		return fail(fmt.Errorf("GET: %w", err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("GET: %s", resp.Status))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxURLBytes+1))
	if err != nil {
		return fail(fmt.Errorf("GET: reading the body: %w", err))
	}
	if len(data) > MaxURLBytes {
		return fail(fmt.Errorf("GET: the body is over %d bytes", MaxURLBytes))
	}
	return File{Name: rawURL, Data: data}, nil
}
