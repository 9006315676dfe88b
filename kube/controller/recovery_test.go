package controller_test

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

// outage forwards TCP connections on 127.0.0.1 to the API server until
// it is cut: then every connection is reset and new ones are refused, as
// when the API server's process is killed, until it is restored on the
// same port.
type outage struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

func newOutage(t testing.TB, target string) *outage {
	o := &outage{t: t, target: target, conns: map[net.Conn]bool{}}
	o.listen("127.0.0.1:0")
	t.Cleanup(o.cut)
	return o
}

func (o *outage) listen(addr string) {
	ln, err := net.Listen("tcp", addr)
	require.NoError(o.t, err)
	o.mu.Lock()
	o.ln, o.addr = ln, ln.Addr().String()
	o.mu.Unlock()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go o.forward(conn)
		}
	}()
}

func (o *outage) forward(conn net.Conn) {
	upstream, err := net.Dial("tcp", o.target)
	if err != nil {
		_ = conn.Close()
		return
	}
	o.mu.Lock()
	o.conns[conn], o.conns[upstream] = true, true
	o.mu.Unlock()
	go func() { _, _ = io.Copy(upstream, conn); _ = upstream.Close() }()
	_, _ = io.Copy(conn, upstream)
	_ = conn.Close()
}

// cut closes the listener and every connection.
func (o *outage) cut() {
	o.mu.Lock()
	defer o.mu.Unlock()
	_ = o.ln.Close()
	for c := range o.conns {
		if tcp, ok := c.(*net.TCPConn); ok {
			_ = tcp.SetLinger(0) // a reset, as from a killed process
		}
		_ = c.Close()
	}
	clear(o.conns)
}

// restore listens again on the same address.
func (o *outage) restore() { o.listen(o.addr) }

// TestRecoveryAfterOutage cuts the controller off the API server for
// longer than client-go's reflectors need to back off to their longest
// waits, then creates a binding once the API server is back: its Works
// are written within seconds.
func TestRecoveryAfterOutage(t *testing.T) {
	c := newCluster(t)
	u, err := url.Parse(c.cfg.Host)
	require.NoError(t, err)
	o := newOutage(t, u.Host)
	cut := c.with(t)
	cut.cfg = rest.CopyConfig(c.cfg)
	cut.cfg.Host = "https://" + o.addr
	before, _ := c.deployment("outage-before", map[string]map[string]any{"outage-a": nil}, nil)
	cut.run()
	c.converge(before)

	const down = 25 * time.Second // past 0.8 + 1.6 + 3.2 + 6.4 + 12.8 s of back-off
	o.cut()
	time.Sleep(down)
	o.restore()
	back := time.Now()
	after, _ := c.deployment("outage-after", map[string]map[string]any{"outage-b": nil}, nil)
	require.True(t, assertEventually(func() bool { return len(c.works("outage-after", after.GetName())) == 1 }),
		"the controller did not write the new binding's Works within 30 s of the API server's return")
	took := time.Since(back)
	t.Logf("API server cut off for %s: the new binding's Works were written %s after it was back", down, took.Round(time.Millisecond))
	require.Less(t, took, 5*time.Second, "the controller took %s to react once the API server was back", took)
}
