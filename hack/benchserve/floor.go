package main

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/luainterp/luainterp/webhook"
)

// floorContext is the request as the floor decodes it: the
// ResourceInterpreterContext's fields, the object as a generic map.
type floorContext struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Request    *struct {
		UID  string `json:"uid"`
		Kind struct {
			Group   string `json:"group"`
			Version string `json:"version"`
			Kind    string `json:"kind"`
		} `json:"kind"`
		Name      string         `json:"name"`
		Namespace string         `json:"namespace"`
		Operation string         `json:"operation"`
		Object    map[string]any `json:"object"`
		Replicas  *int32         `json:"replicas"`
	} `json:"request"`
}

// floorHandler decodes the request and writes a fixed successful
// response with the request's uid: the least a webhook does.
func floorHandler(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 3<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var review floorContext
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil || review.APIVersion != webhook.APIVersion {
		http.Error(w, "not a ResourceInterpreterContext request", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", webhook.ContentType)
	uid, _ := json.Marshal(review.Request.UID)
	_, _ = fmt.Fprintf(w, `{"apiVersion":%q,"kind":%q,"response":{"uid":%s,"successful":true,"replicas":6}}`,
		webhook.APIVersion, webhook.ContextKind, uid)
}

// serveFloor serves floorHandler over TLS on o.addr, with the server
// timeouts of serve, and prints its address.
func serveFloor(o options) error {
	cert, err := tls.LoadX509KeyPair(o.tlsDir+"/tls.crt", o.tlsDir+"/tls.key")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           http.HandlerFunc(floorHandler),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      40 * time.Second,
		IdleTimeout:       90 * time.Second,
	}
	fmt.Println("listening on " + ln.Addr().String())
	return srv.ServeTLS(ln, "", "")
}
