package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/luainterp/luainterp/internal/floor"
)

// serveFloor serves the floor over TLS on o.addr, with the TLS version
// and HTTP server timeouts of serve, answering what the file o.answer
// holds (the webhook's answer to the request of uid requestUID), and
// prints its address.
func serveFloor(o options) error {
	debug.SetGCPercent(o.gcPercent)
	answer, err := os.ReadFile(o.answer)
	if err != nil {
		return err
	}
	template, err := floor.NewTemplate(answer, requestUID)
	if err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(o.tlsDir+"/tls.crt", o.tlsDir+"/tls.key")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           floor.Handler(template),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      40 * time.Second,
		IdleTimeout:       90 * time.Second,
	}
	fmt.Println("listening on " + ln.Addr().String())
	return srv.ServeTLS(ln, "", "")
}
