package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/admission"
	"github.com/luainterp/luainterp/kube/source"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/server"
)

// serveOptions are the flags of `luainterp serve`.
type serveOptions struct {
	logFormat       string
	metricsAddr     string
	addr            string
	tlsCert, tlsKey string
	customizations  []string
	webhookConfigs  []string
	watch           bool
	configFile      string
	cfg             serveconfig.Config // the flags of the configuration's keys
	gcPercent       int
	kube            kubeOptions
	admission       admissionOptions
	argocd          argocdFlags
}

func newServeCommand() *cobra.Command {
	o := &serveOptions{cfg: serveconfig.Default()}
	cmd := &cobra.Command{
		Use:   "serve [--addr :8443] [--tls-cert F --tls-key F] [-f CUSTOMIZATION]... [--watch] [--webhook-config F]... [--config serve.yaml]",
		Short: "Serve the interpreter as a Karmada interpreter webhook",
		Long: `Serve luainterp's layers as a Karmada resource interpreter webhook: a
Karmada control plane whose ResourceInterpreterWebhookConfiguration points
at this server asks it every operation its rules select, and gets the
answers of the built-in handlers, with the customizations of -f on top.

The webhook answers POSTs of a ResourceInterpreterContext at every path
but these:
  /healthz   200 while the process serves
  /readyz    200 while it accepts requests; 503 until every customization
             and webhook configuration that existed at start (files, API
             objects) is loaded or has failed, and once shutting down
  /metrics   Prometheus metrics: luainterp_webhook_requests_total by
             operation and outcome (success, failure, rejected,
             overloaded, rate_limited), luainterp_webhook_request_duration_seconds,
             luainterp_webhook_response_flags_total by operation and flag,
             luainterp_bulkhead_queue_wait_seconds, luainterp_breaker_state,
             luainterp_breaker_ejections_total, luainterp_breaker_refused_total

Karmada calls webhooks over HTTPS only: give --tls-cert and --tls-key, a
certificate its clientConfig.caBundle trusts. They are read again when they
change on disk (a renewed Secret). Without them the server speaks plain
HTTP, for a sidecar or a test.

With --webhook-config, the webhooks of ResourceInterpreterWebhookConfiguration
files answer the kinds their rules select, below the customizations and
above the bundled scripts and built-in handlers: a luainterp in front of
older webhooks.

Each hook (a kind and an operation) has a bulkhead: at most --max-requests
of its calls run at once, and --max-pending wait, each at most --max-wait,
for a slot. A call past those is answered HTTP 503 at once, with a failed
response naming the hook, so that one kind whose script loops or whose
webhook hangs cannot take the slots of the others. With
--rate-limit-max-tokens, a token bucket answers the calls past its rate
HTTP 429 with Retry-After. A Lua call runs at most the shorter of
--timeout and --engine-deadline; an operation that runs past its deadline
(that one, a caller's ?timeout=) is answered with code 504.

A remote webhook that fails 5 times in a row (no answer, HTTP 5xx), and a
hook whose calls run past their deadline or memory budget 5 times in a
row, are ejected: their calls are answered 503 at once for 30s (longer
when it happens again), then one probe call decides.

--config FILE reads all of these from one YAML file (Envoy's names:
circuit_breakers.max_requests, local_ratelimit.token_bucket.max_tokens,
outlier_detection.consecutive_5xx, ...; see testdata/examples/serve.yaml),
with rate limits of their own for some operations or kinds; flags given
beside it override the file. Each request gets an access log line on
standard error (or --access-log FILE): time, operation, kind, HTTP status,
code, response flags (UO overflow, RL rate limited, UT timeout, UF upstream
failure, UH ejected, - none), milliseconds, uid.

With --watch, the customization files are loaded again when they change,
each on its own: a file whose new contents do not load, or would drop every
operation it defined (0 bytes, a document cut short), keeps its last good
version serving, with a WARN log line and
luainterp_customization_file_reloads_total{file,outcome}, while the other
files' changes apply; deleting a file removes its hooks (docs/reload.md).

With --kubeconfig (or --in-cluster), the ResourceInterpreterCustomizations
and ResourceInterpreterWebhookConfigurations of the API server are followed
live and merged with the files; a file wins over an object of its name. An
object that does not load keeps its last good version serving and gets a
Warning Event (reason LoadFailed). The server also answers the API server's
admission reviews of ResourceInterpreterCustomizations at
/admission/resourceinterpretercustomizations, refusing those that would
not load and those that define an operation another customization of the
same target defines. A review runs no script whose top level only
defines functions and values; any other runs on an engine of its own
(--admission-pool-size, --admission-deadline, --admission-run-rate),
never on the states that serve, behind a rate limit and a bulkhead of
its own (--admission-rate, --admission-max-requests, ...) that answer
the excess 429 or 503 at once; luainterp_admission_reviews_total counts
them by result. With --client-ca, the admission path (and with
--client-ca-interpreter the interpreter path) answers only callers with
a client certificate that CA signed: the API server, through its
AdmissionConfiguration (docs/admission.md).

On SIGTERM or SIGINT the server reports not ready (/readyz 503) and goes
on serving for --drain, so that load balancers stop sending; then it stops
accepting connections and finishes the requests in flight (up to
--shutdown-grace).
Requests that fail are also logged to standard error.

Until the layers are loaded, every request but /healthz and /readyz is
answered HTTP 503 with Retry-After: 1, never from layers half loaded.`,
		Example: `  luainterp serve --tls-cert /etc/webhook/tls.crt --tls-key /etc/webhook/tls.key -f /etc/customizations/
  luainterp serve --addr 127.0.0.1:8080 -f customization.yaml --watch
  luainterp serve --in-cluster --tls-cert /etc/webhook/tls.crt --tls-key /etc/webhook/tls.key`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	addLogFormatFlag(f, &o.logFormat)
	f.StringVar(&o.metricsAddr, "metrics-address", "", "also serve /metrics, /healthz and /readyz over plain HTTP at this address (they are on --addr too)")
	f.StringVar(&o.addr, "addr", ":8443", "the address to listen on")
	f.StringVar(&o.tlsCert, "tls-cert", "", "the serving certificate (PEM), with --tls-key")
	f.StringVar(&o.tlsKey, "tls-key", "", "the serving certificate's private key (PEM), with --tls-cert")
	addCustomizationFlag(f, &o.customizations)
	addWebhookConfigFlag(f, &o.webhookConfigs)
	f.BoolVar(&o.watch, "watch", false, "reload the customizations of -f when their files change")
	f.StringVar(&o.configFile, "config", "", "the configuration file (YAML) of the limits, deadlines, engine and drain; flags given override it")
	addConfigFlags(f, &o.cfg)
	addGCFlag(f, &o.gcPercent)
	o.kube.addFlags(f)
	o.admission.addFlags(f)
	o.argocd.addServe(f)
	return cmd
}

func (o *serveOptions) check() error {
	switch {
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key: give both or neither")
	case o.kube.check() != nil:
		return o.kube.check()
	case o.admission.check(o.tlsCert) != nil:
		return o.admission.check(o.tlsCert)
	case o.watch && len(o.customizations) == 0:
		return errors.New("--watch: no customization files (-f) to watch")
	case o.watch && slices.Contains(o.customizations, customization.Stdin):
		return errors.New("--watch: standard input (-f -) cannot be watched")
	}
	return checkStdin(fileFlag{"-f", o.customizations}, fileFlag{"--webhook-config", o.webhookConfigs})
}

func (o *serveOptions) run(cmd *cobra.Command) error {
	if err := o.check(); err != nil {
		return err
	}
	cfg, err := o.config(cmd.Flags())
	if err != nil {
		return err
	}
	gcPercent, err := applyGCPercent(cmd.Flags(), o.gcPercent)
	if err != nil {
		return err
	}
	log, err := newLogger(cmd.ErrOrStderr(), o.logFormat)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	var draining atomic.Bool
	ready := func() error {
		if draining.Load() {
			return errors.New("shutting down")
		}
		return nil
	}
	gatherer := newGatherer()
	gate := newStartGate(gatherer)
	srv := &http.Server{
		Handler:           closingWhile(&draining, gate),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.Timeout.Duration + 10*time.Second,
		IdleTimeout:       90 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if o.tlsCert != "" {
		certs, err := server.NewCertReloader(o.tlsCert, o.tlsKey)
		if err != nil {
			return err
		}
		srv.TLSConfig = certs.TLSConfig()
		if err := o.admission.requireClientCerts(srv.TLSConfig); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	useTLS := srv.TLSConfig != nil // read before serving, which sets up srv.TLSConfig
	served := make(chan error, 1)
	go func() {
		if useTLS {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(ln)
		}
	}()
	log.Info("serving interpreter webhook", "address", ln.Addr().String(), "tls", useTLS,
		"timeout", cfg.Timeout.Duration, "lua_deadline", cfg.LuaDeadline(), "lua_states", cfg.Engine.PoolSize,
		"max_requests", cfg.CircuitBreakers.MaxRequests, "max_pending_requests", cfg.CircuitBreakers.MaxPendingRequests, "gc_percent", gcPercent)

	if o.metricsAddr != "" {
		// /metrics, /healthz and /readyz on a plain HTTP port of their own
		// too, so that a scraper and the kubelet need not speak the
		// webhook's TLS; from the start, as on --addr.
		metricsSrv, err := serveMetrics(o.metricsAddr, server.NewMux(http.NotFoundHandler(), gatherer, gate.ready(ready)), log)
		if err != nil {
			_ = srv.Close()
			return err
		}
		defer metricsSrv.Close()
	}
	loading := o.load(ctx, cmd, cfg, log, ready, gatherer, gate)
	for {
		select {
		case err := <-served:
			return fmt.Errorf("serving: %w", err)
		case l := <-loading:
			if l.err != nil && ctx.Err() == nil {
				_ = srv.Close()
				return l.err
			}
			if l.closeAccess != nil {
				defer l.closeAccess()
			}
			loading = nil
		case <-ctx.Done():
			return drain(srv, &draining, cfg, log)
		}
	}
}

// loaded is the outcome of loading serve's layers.
type loaded struct {
	closeAccess func() // closes the access log; nil when err is not nil
	err         error
}

// load builds serve's handler in the background while the server answers
// through gate, opening gate once every customization and webhook
// configuration that exists (files, API server objects) is loaded or has
// failed; the channel gets the outcome.
func (o *serveOptions) load(ctx context.Context, cmd *cobra.Command, cfg serveconfig.Config, log *slog.Logger, ready func() error, gatherer *prometheus.Registry, gate *startGate) chan loaded {
	out := make(chan loaded, 1)
	start := time.Now()
	go func() {
		handler, closeAccess, err := o.handler(ctx, cmd, cfg, log, ready, gatherer)
		if err != nil {
			out <- loaded{err: err}
			return
		}
		gate.opened(handler)
		log.Info("ready: layers loaded", "took", time.Since(start).Round(time.Millisecond))
		out <- loaded{closeAccess: closeAccess}
	}()
	return out
}

// handler returns the routes of serve (the webhook behind its limits,
// admission, health, readiness as ready says, metrics from gatherer,
// where it registers its own) and a function that closes the access log.
func (o *serveOptions) handler(ctx context.Context, cmd *cobra.Command, cfg serveconfig.Config, log *slog.Logger, ready func() error, gatherer *prometheus.Registry) (http.Handler, func(), error) {
	metrics, waits := server.NewMetrics(), queueWait()
	gatherer.MustRegister(metrics, waits)
	limits, err := serveLimits(cfg, observeWait(waits))
	if err != nil {
		return nil, nil, err
	}
	webhookOpts, hookBreakers, err := outlierDetection(cfg.OutlierDetection, gatherer)
	if err != nil {
		return nil, nil, err
	}
	parts := layerParts{log: log, gatherer: gatherer, engine: newEngine(cmd.ErrOrStderr(), cfg.EngineOptions()...), webhookOpts: webhookOpts}
	gatherer.MustRegister(engineRuns("interpreter", parts.engine))
	reg, validator, err := o.layers(ctx, cmd, parts)
	if err == nil {
		err = o.argocd.install(ctx, reg, parts.engine, &o.kube, log)
	}
	if err != nil {
		return nil, nil, err
	}
	if hookBreakers != nil {
		// Innermost, around the registry it asks which layer answers: an
		// ejected hook's refusal holds a bulkhead slot only while it refuses.
		// The Lua layers' hooks only: a built-in handler has no deadline to
		// run into, and a webhook has its own breaker.
		limits = append(limits, hookBreakers.Middleware(reg.Which, interpreter.LayerCustomization, interpreter.LayerThirdParty, interpreter.LayerArgoCD))
	}
	access, closeAccess, err := openAccessLog(cfg.AccessLog, cmd.ErrOrStderr())
	if err != nil {
		return nil, nil, err
	}
	handler := server.New(interpreter.Chain(reg, limits...), server.WithTimeout(cfg.Timeout.Duration), server.WithMaxBodyBytes(cfg.MaxBodyBytes.N),
		server.WithMetrics(metrics), server.WithLogger(log), server.WithAccessLog(access))
	return o.mux(handler, validator, gatherer, ready), closeAccess, nil
}

// openAccessLog opens the access log file for appending, or returns
// stderr when there is none; close it when done serving.
func openAccessLog(path string, stderr io.Writer) (io.Writer, func(), error) {
	if path == "" {
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("access log: %w", err)
	}
	return f, func() { _ = f.Close() }, nil
}

// closingWhile answers through h, asking the client to close its
// connection once draining is set, so that its next request opens a new
// one. (http.Server.SetKeepAlivesEnabled(false) would also close the idle
// connections at once, racing the clients about to send on them.)
func closingWhile(draining *atomic.Bool, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if draining.Load() {
			w.Header().Set("Connection", "close")
		}
		h.ServeHTTP(w, r)
	})
}

// drain shuts srv down: not ready at once, still serving for the drain
// period (each answer asking its client to close the connection, so that
// the next request opens a new one, to another replica once the load
// balancer has seen /readyz), then no new connections, and the requests
// in flight finish within the shutdown grace.
func drain(srv *http.Server, draining *atomic.Bool, cfg serveconfig.Config, log *slog.Logger) error {
	draining.Store(true)
	if d := cfg.DrainPeriod.Duration; d > 0 {
		log.Info("shutting down: not ready, draining", "drain_period", d)
		time.Sleep(d)
	}
	log.Info("shutting down: finishing requests in flight", "grace", cfg.ShutdownGrace.Duration)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace.Duration)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	log.Info("shut down")
	return nil
}

// layerParts are what the layers of serve are built with.
type layerParts struct {
	log         *slog.Logger
	gatherer    *prometheus.Registry // their metrics are registered here
	engine      *luavm.Engine        // the scripts run on it
	webhookOpts []client.Option      // of the webhook layer
}

// layers returns the registry to serve and the admission validator: from
// the files alone, or following the API server (--kubeconfig, --in-cluster)
// with the files merged in.
func (o *serveOptions) layers(ctx context.Context, cmd *cobra.Command, p layerParts) (*interpreter.Registry, *admission.Validator, error) {
	if !o.kube.enabled() {
		reg, err := o.registry(ctx, cmd, p)
		if err == nil {
			err = setWebhookLayer(cmd, reg, o.webhookConfigs, p.webhookOpts...)
		}
		if err != nil {
			return nil, nil, err
		}
		validator, err := o.admission.validator(nil, p.log, p.gatherer)
		return reg, validator, err
	}
	metrics := source.NewMetrics()
	p.gatherer.MustRegister(metrics)
	live, err := newLiveRegistry(cmd, &o.kube, p.engine, o.customizations, o.webhookConfigs,
		source.WithLogger(p.log), source.WithMetrics(metrics), source.WithWebhookOptions(p.webhookOpts...))
	if err != nil {
		return nil, nil, err
	}
	if o.watch {
		if err := live.watchFiles(ctx, o.customizations, newFileWatch(p.log, cmd.ErrOrStderr(), p.gatherer)); err != nil {
			return nil, nil, err
		}
	}
	if err := live.source.Start(ctx); err != nil {
		return nil, nil, err
	}
	validator, err := o.admission.validator(live.source.Customizations, p.log, p.gatherer)
	return live.reg, validator, err
}

// mux routes the admission reviews to validator and the rest as
// server.NewMux does, each behind the client certificate it requires.
func (o *serveOptions) mux(handler http.Handler, validator *admission.Validator, gatherer prometheus.Gatherer, ready func() error) http.Handler {
	mux := server.NewMux(o.admission.requireClientCert(handler, true), gatherer, ready)
	mux.Handle(admission.Path, o.admission.requireClientCert(validator, false))
	return mux
}

// registry returns the registry to serve, its scripts run on p.engine: newRegistry's layers, with the
// customizations of -f loaded once, or kept in step with their files (--watch).
func (o *serveOptions) registry(ctx context.Context, cmd *cobra.Command, p layerParts) (*interpreter.Registry, error) {
	if !o.watch {
		return newRegistry(withCustomizations(o.customizations...), withIO(cmd), withEngine(p.engine))
	}
	reg, err := newRegistry(withIO(cmd), withEngine(p.engine))
	if err != nil {
		return nil, err
	}
	watch := newFileWatch(p.log, cmd.ErrOrStderr(), p.gatherer)
	if err := watch.reloader(reg, p.engine, o.customizations, nil).Start(ctx); err != nil {
		return nil, err
	}
	return reg, nil
}

// addWebhookConfigFlag adds --webhook-config, the files of
// ResourceInterpreterWebhookConfigurations; pass them to setWebhookLayer.
func addWebhookConfigFlag(f *pflag.FlagSet, paths *[]string) {
	f.StringArrayVar(paths, "webhook-config", nil, "ResourceInterpreterWebhookConfiguration file or directory: webhooks to ask (YAML or JSON; repeatable; - for stdin)")
}

// setWebhookLayer installs the webhooks of the configurations in paths as
// reg's webhook layer; nothing when there are no paths. Loading warnings
// go to the command's standard error; opts configure the layer.
func setWebhookLayer(cmd *cobra.Command, reg *interpreter.Registry, paths []string, opts ...client.Option) error {
	if len(paths) == 0 {
		return nil
	}
	loaded, err := webhook.Loader{Stdin: cmd.InOrStdin()}.Load(paths...)
	if err != nil {
		return fmt.Errorf("--webhook-config: %w", err)
	}
	for _, w := range loaded.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	layer, err := client.New(loaded.Configurations, opts...)
	if err != nil {
		return fmt.Errorf("--webhook-config: %w", err)
	}
	reg.Set(interpreter.LayerWebhook, layer)
	return nil
}
