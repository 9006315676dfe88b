package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// target is a server under load.
type target struct {
	proc   *server
	name   string
	url    string
	client *http.Client
	body   []byte
}

// loadResult is what one or more loads measured.
type loadResult struct {
	latencies []time.Duration
	elapsed   time.Duration
	cpu       time.Duration // the server process's
}

func (r *loadResult) add(o loadResult) {
	r.latencies = append(r.latencies, o.latencies...)
	r.elapsed += o.elapsed
	r.cpu += o.cpu
}

// cpuPerRequest is the server's CPU time per request.
func (r *loadResult) cpuPerRequest() time.Duration {
	return r.cpu / time.Duration(len(r.latencies))
}

// rate is the requests answered per second.
func (r *loadResult) rate() float64 { return float64(len(r.latencies)) / r.elapsed.Seconds() }

// p99 is the 99th percentile latency.
func (r *loadResult) p99() time.Duration {
	sorted := slices.Clone(r.latencies)
	slices.Sort(sorted)
	return sorted[(len(sorted)*99)/100]
}

// load sends n requests, concurrency at a time, and fails at the first
// answer that is not HTTP 200.
func (t *target) load(n, concurrency int) (loadResult, error) {
	latencies := make([]time.Duration, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var (
		wg       sync.WaitGroup
		failOnce sync.Once
		failure  error
	)
	cpu := t.proc.cpu()
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for i := range next {
				began := time.Now()
				if _, err := t.post(); err != nil {
					failOnce.Do(func() { failure = err })
					return
				}
				latencies[i] = time.Since(began)
			}
		})
	}
	wg.Wait()
	if failure != nil {
		return loadResult{}, failure
	}
	elapsed := time.Since(start)
	return loadResult{latencies: latencies, elapsed: elapsed, cpu: t.proc.cpu() - cpu}, nil
}

// post sends the request once and returns the whole answer, failing for
// one that is not a success.
func (t *target) post() ([]byte, error) {
	resp, err := t.client.Post(t.url, "application/json", bytes.NewReader(t.body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.name, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the answer: %w", t.name, err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"successful":true`)) {
		return nil, fmt.Errorf("%s: HTTP %d: %s", t.name, resp.StatusCode, body)
	}
	return body, nil
}
