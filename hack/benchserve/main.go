package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// options are benchserve's flags.
type options struct {
	bin         string
	tlsDir      string
	object      string
	operation   string
	requests    int
	rounds      int
	warmup      int
	concurrency []int
	floor       bool
	addr        string
	answer      string
	gcPercent   int
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err == nil {
		if o.floor {
			err = serveFloor(o)
		} else {
			err = run(o)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchserve:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	o := options{}
	f := flag.NewFlagSet("benchserve", flag.ContinueOnError)
	f.StringVar(&o.bin, "bin", "bin/luainterp", "the luainterp binary to run `serve` of")
	f.StringVar(&o.tlsDir, "tls-dir", "webhook/testdata/tls", "the directory of ca.crt, tls.crt and tls.key")
	f.StringVar(&o.object, "object", "builtin/testdata/bench/deployment.yaml", "the manifest of the object asked about")
	f.StringVar(&o.operation, "operation", "InterpretReplica", "the operation asked")
	f.IntVar(&o.requests, "requests", 3000, "the requests sent to each server at each concurrency")
	f.IntVar(&o.rounds, "rounds", 3, "the interleaved rounds the requests are sent in")
	f.IntVar(&o.warmup, "warmup", 300, "the requests sent to each server before measuring")
	levels := f.String("concurrency", "1,8,32", "the numbers of requests in flight, comma-separated")
	f.IntVar(&o.gcPercent, "gc-percent", 400, "the garbage collector's target of both servers (serve --gc-percent, GOGC): serve's default, so that neither is favoured")
	f.BoolVar(&o.floor, "floor", false, "serve the floor on -addr and print its address (used by benchserve itself)")
	f.StringVar(&o.addr, "addr", "127.0.0.1:0", "the floor's address with -floor")
	f.StringVar(&o.answer, "answer", "", "the file of the answer the floor gives, with -floor")
	if err := f.Parse(args); err != nil {
		return o, err
	}
	for _, s := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-concurrency: %q is not a positive number", s)
		}
		o.concurrency = append(o.concurrency, n)
	}
	if o.requests < o.rounds || o.rounds < 1 {
		return o, fmt.Errorf("-requests %d, -rounds %d: want at least one request per round", o.requests, o.rounds)
	}
	return o, nil
}

// run starts both servers, loads them and prints the table.
func run(o options) error {
	body, err := requestBody(o.object, o.operation)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tlsArgs := []string{"--tls-cert", o.tlsDir + "/tls.crt", "--tls-key", o.tlsDir + "/tls.key"}
	gc := strconv.Itoa(o.gcPercent)
	webhook, err := start(ctx, o.bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--gc-percent", gc}, tlsArgs...), addressInLog)
	if err != nil {
		return fmt.Errorf("starting %s serve: %w", o.bin, err)
	}
	defer webhook.stop()
	client, err := newClient(o.tlsDir+"/ca.crt", slices.Max(o.concurrency))
	if err != nil {
		return err
	}
	webhookTarget := &target{proc: webhook, name: "webhook", url: "https://" + webhook.addr + "/", client: client, body: body}
	answer, err := webhookTarget.post()
	if err != nil {
		return err
	}
	// The floor answers what the webhook does, so that both write the same.
	answerFile := filepath.Join(os.TempDir(), fmt.Sprintf("benchserve-answer-%d.json", os.Getpid()))
	if err := os.WriteFile(answerFile, answer, 0o600); err != nil {
		return err
	}
	defer os.Remove(answerFile)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	floor, err := start(ctx, self, []string{"-floor", "-tls-dir", o.tlsDir, "-answer", answerFile, "-gc-percent", gc}, addressLine)
	if err != nil {
		return fmt.Errorf("starting the floor: %w", err)
	}
	defer floor.stop()
	targets := []*target{
		{proc: floor, name: "floor", url: "https://" + floor.addr + "/", client: client, body: body},
		webhookTarget,
	}
	fmt.Printf("%s of %s, %d requests per server and concurrency in %d interleaved rounds, TLS on 127.0.0.1\n",
		o.operation, o.object, o.requests, o.rounds)
	fmt.Printf("%-11s | %-28s | %-28s | %s\n", "", "floor", "webhook", "webhook/floor")
	fmt.Printf("%-11s | %8s %9s %9s | %8s %9s %9s | %6s %6s %6s\n", "concurrency",
		"req/s", "p99", "cpu/req", "req/s", "p99", "cpu/req", "rate", "p99", "cpu")
	for _, c := range o.concurrency {
		for _, t := range targets {
			if _, err := t.load(o.warmup, c); err != nil {
				return err
			}
		}
		runs := make([]loadResult, len(targets))
		for r := range o.rounds {
			n := o.requests / o.rounds
			if r == o.rounds-1 {
				n = o.requests - n*(o.rounds-1)
			}
			for i, t := range targets {
				res, err := t.load(n, c)
				if err != nil {
					return err
				}
				runs[i].add(res)
			}
		}
		f, w := runs[0], runs[1]
		us := func(d time.Duration) string { return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond)) }
		fmt.Printf("%-11d | %8.0f %9s %9s | %8.0f %9s %9s | %6.2f %6.2f %6.2f\n", c,
			f.rate(), us(f.p99()), us(f.cpuPerRequest()), w.rate(), us(w.p99()), us(w.cpuPerRequest()),
			w.rate()/f.rate(), float64(w.p99())/float64(f.p99()), float64(w.cpuPerRequest())/float64(f.cpuPerRequest()))
	}
	return nil
}

// newClient returns a client trusting the test CA, keeping enough idle
// connections for every request in flight.
func newClient(caFile string, conns int) (*http.Client, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, errors.New(caFile + ": no certificate")
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
	}}, nil
}
