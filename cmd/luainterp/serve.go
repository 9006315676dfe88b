package main

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
	"github.com/luainterp/luainterp/kube/admission"
	"github.com/luainterp/luainterp/kube/source"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/server"
)

// serveOptions are the flags of `luainterp serve`.
type serveOptions struct {
	addr            string
	tlsCert, tlsKey string
	customizations  []string
	webhookConfigs  []string
	watch           bool
	timeout         time.Duration
	maxBodyBytes    int64
	shutdownGrace   time.Duration
	bulkhead        bulkhead.Limits
	rateLimit       ratelimit.Bucket // off when MaxTokens is 0
	rateLimitScope  string
	kube            kubeOptions
}

func newServeCommand() *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--addr :8443] [--tls-cert F --tls-key F] [-f CUSTOMIZATION]... [--watch] [--webhook-config F]...",
		Short: "Serve the interpreter as a Karmada interpreter webhook",
		Long: `Serve luainterp's layers as a Karmada resource interpreter webhook: a
Karmada control plane whose ResourceInterpreterWebhookConfiguration points
at this server asks it every operation its rules select, and gets the
answers of the built-in handlers, with the customizations of -f on top.

The webhook answers POSTs of a ResourceInterpreterContext at every path
but these:
  /healthz   200 while the process serves
  /readyz    200 while it accepts requests, 503 once it is shutting down
  /metrics   Prometheus metrics: luainterp_webhook_requests_total by
             operation and outcome (success, failure, rejected,
             overloaded, rate_limited), luainterp_webhook_request_duration_seconds

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
webhook hangs cannot take the slots of the others. An operation that runs
past its deadline (--timeout, a caller's ?timeout=, or the Lua engine's) is
answered with code 504.

With --watch, the customization files are loaded again when they change; a
change that does not load keeps the previous customizations.

With --kubeconfig (or --in-cluster), the ResourceInterpreterCustomizations
and ResourceInterpreterWebhookConfigurations of the API server are followed
live and merged with the files; a file wins over an object of its name. An
object that does not load keeps its last good version serving and gets a
Warning Event (reason LoadFailed). The server also answers the API server's
admission reviews of ResourceInterpreterCustomizations at
/admission/resourceinterpretercustomizations, refusing those that would
not load and those that define an operation another customization of the
same target defines.

On SIGTERM or SIGINT the server stops accepting connections, reports not
ready, and finishes the requests in flight (up to --shutdown-grace).
Requests are logged to standard error when they fail.`,
		Example: `  luainterp serve --tls-cert /etc/webhook/tls.crt --tls-key /etc/webhook/tls.key -f /etc/customizations/
  luainterp serve --addr 127.0.0.1:8080 -f customization.yaml --watch
  luainterp serve --in-cluster --tls-cert /etc/webhook/tls.crt --tls-key /etc/webhook/tls.key`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", ":8443", "the address to listen on")
	f.StringVar(&o.tlsCert, "tls-cert", "", "the serving certificate (PEM), with --tls-key")
	f.StringVar(&o.tlsKey, "tls-key", "", "the serving certificate's private key (PEM), with --tls-cert")
	addCustomizationFlag(f, &o.customizations)
	addWebhookConfigFlag(f, &o.webhookConfigs)
	f.BoolVar(&o.watch, "watch", false, "reload the customizations of -f when their files change")
	f.DurationVar(&o.timeout, "timeout", server.DefaultTimeout, "the longest one operation may run (a caller's ?timeout= can only shorten it)")
	f.Int64Var(&o.maxBodyBytes, "max-body-bytes", server.DefaultMaxBodyBytes, "the largest request body accepted")
	f.IntVar(&o.bulkhead.MaxRequests, "max-requests", bulkhead.DefaultMaxRequests, "the most calls of one hook (kind and operation) that run at once")
	f.IntVar(&o.bulkhead.MaxPending, "max-pending", bulkhead.DefaultMaxPending, "the most calls of one hook that wait for a slot; further ones are answered 503 at once")
	f.DurationVar(&o.bulkhead.MaxWait, "max-wait", bulkhead.DefaultMaxWait, "the longest a call waits for a slot of its hook before it is answered 503 (0: its deadline)")
	f.IntVar(&o.rateLimit.MaxTokens, "rate-limit-max-tokens", 0, "rate limit: the token bucket's size, the largest burst (0: no rate limit)")
	f.IntVar(&o.rateLimit.TokensPerFill, "rate-limit-tokens-per-fill", 100, "rate limit: tokens added every --rate-limit-fill-interval")
	f.DurationVar(&o.rateLimit.FillInterval, "rate-limit-fill-interval", time.Second, "rate limit: how often --rate-limit-tokens-per-fill tokens are added")
	f.StringVar(&o.rateLimitScope, "rate-limit-scope", "server", "rate limit: which calls share a bucket: server, operation, kind or hook")
	f.DurationVar(&o.shutdownGrace, "shutdown-grace", 20*time.Second, "how long to wait for requests in flight on shutdown")
	o.kube.addFlags(f)
	return cmd
}

func (o *serveOptions) check() error {
	switch {
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key: give both or neither")
	case o.timeout <= 0:
		return fmt.Errorf("--timeout: want a positive duration, got %s", o.timeout)
	case o.maxBodyBytes <= 0:
		return fmt.Errorf("--max-body-bytes: want a positive size, got %d", o.maxBodyBytes)
	case o.bulkhead.MaxRequests < 1:
		return fmt.Errorf("--max-requests: want at least 1, got %d", o.bulkhead.MaxRequests)
	case o.bulkhead.MaxPending < 0:
		return fmt.Errorf("--max-pending: want 0 or more, got %d", o.bulkhead.MaxPending)
	case o.bulkhead.MaxWait < 0:
		return fmt.Errorf("--max-wait: want 0 or more, got %s", o.bulkhead.MaxWait)
	case o.rateLimit.MaxTokens < 0:
		return fmt.Errorf("--rate-limit-max-tokens: want 0 or more, got %d", o.rateLimit.MaxTokens)
	case o.rateLimit.MaxTokens > 0 && o.rateLimit.TokensPerFill < 1:
		return fmt.Errorf("--rate-limit-tokens-per-fill: want at least 1, got %d", o.rateLimit.TokensPerFill)
	case o.rateLimit.MaxTokens > 0 && o.rateLimit.FillInterval <= 0:
		return fmt.Errorf("--rate-limit-fill-interval: want a positive duration, got %s", o.rateLimit.FillInterval)
	case !slices.Contains(rateLimitScopes, o.rateLimitScope):
		return fmt.Errorf("--rate-limit-scope: want one of server, operation, kind, hook, got %q", o.rateLimitScope)
	case o.kube.check() != nil:
		return o.kube.check()
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
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	metrics := server.NewMetrics()
	gatherer := prometheus.NewRegistry()
	gatherer.MustRegister(metrics, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	limits, err := o.limits()
	if err != nil {
		return err
	}
	reg, validator, err := o.layers(ctx, cmd, log, gatherer)
	if err != nil {
		return err
	}
	handler := server.New(interpreter.Chain(reg, limits...), server.WithTimeout(o.timeout), server.WithMaxBodyBytes(o.maxBodyBytes),
		server.WithMetrics(metrics), server.WithLogger(log))
	var draining atomic.Bool
	ready := func() error {
		if draining.Load() {
			return errors.New("shutting down")
		}
		return nil
	}
	srv := &http.Server{
		Handler:           o.mux(handler, validator, gatherer, ready),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      o.timeout + 10*time.Second,
		IdleTimeout:       90 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if o.tlsCert != "" {
		certs, err := server.NewCertReloader(o.tlsCert, o.tlsKey)
		if err != nil {
			return err
		}
		srv.TLSConfig = certs.TLSConfig()
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
	log.Info("serving interpreter webhook", "address", ln.Addr().String(), "tls", useTLS)

	select {
	case err := <-served:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	draining.Store(true)
	log.Info("shutting down: finishing requests in flight", "grace", o.shutdownGrace)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	log.Info("shut down")
	return nil
}

// rateLimitScopes are the values of --rate-limit-scope, in ratelimit.Scope order.
var rateLimitScopes = []string{"server", "operation", "kind", "hook"}

// limits returns the middleware that protects the registry, outermost
// first: the rate limit, which refuses before anything waits, then the
// bulkheads.
func (o *serveOptions) limits() ([]interpreter.Middleware, error) {
	var mws []interpreter.Middleware
	if o.rateLimit.MaxTokens > 0 {
		l, err := ratelimit.New(o.rateLimit, ratelimit.Scope(slices.Index(rateLimitScopes, o.rateLimitScope)))
		if err != nil {
			return nil, err
		}
		mws = append(mws, l.Middleware())
	}
	b, err := bulkhead.New(o.bulkhead)
	if err != nil {
		return nil, err
	}
	return append(mws, b.Middleware()), nil
}

// layers returns the registry to serve and the admission validator: from
// the files alone, or following the API server (--kubeconfig, --in-cluster)
// with the files merged in, its metrics registered in gatherer.
func (o *serveOptions) layers(ctx context.Context, cmd *cobra.Command, log *slog.Logger, gatherer *prometheus.Registry) (*interpreter.Registry, *admission.Validator, error) {
	if !o.kube.enabled() {
		reg, err := o.registry(ctx, cmd, log)
		if err == nil {
			err = setWebhookLayer(cmd, reg, o.webhookConfigs)
		}
		if err != nil {
			return nil, nil, err
		}
		return reg, admission.New(newEngine(cmd.ErrOrStderr()), nil, log), nil
	}
	metrics := source.NewMetrics()
	gatherer.MustRegister(metrics)
	live, err := newLiveRegistry(cmd, &o.kube, o.customizations, o.webhookConfigs, source.WithLogger(log), source.WithMetrics(metrics))
	if err != nil {
		return nil, nil, err
	}
	if o.watch {
		if err := live.watchFiles(ctx, o.customizations, log); err != nil {
			return nil, nil, err
		}
	}
	if err := live.source.Start(ctx); err != nil {
		return nil, nil, err
	}
	return live.reg, admission.New(live.engine, live.source.Customizations, log), nil
}

// mux routes the admission reviews to validator and the rest as server.NewMux does.
func (o *serveOptions) mux(handler http.Handler, validator *admission.Validator, gatherer prometheus.Gatherer, ready func() error) http.Handler {
	mux := server.NewMux(handler, gatherer, ready)
	mux.Handle(admission.Path, validator)
	return mux
}

// registry returns the registry to serve: newRegistry's layers, with the
// customizations of -f loaded once, or kept in step with their files (--watch).
func (o *serveOptions) registry(ctx context.Context, cmd *cobra.Command, log *slog.Logger) (*interpreter.Registry, error) {
	if !o.watch {
		return newRegistry(withCustomizations(o.customizations...), withIO(cmd))
	}
	engine := newEngine(cmd.ErrOrStderr())
	reg, err := newRegistry(withIO(cmd), withEngine(engine))
	if err != nil {
		return nil, err
	}
	started := false // the first load's error is Start's; later ones are logged
	reloader := &customization.Reloader{
		Registry: reg,
		Engine:   engine,
		Paths:    o.customizations,
		OnLoad: func(set *customization.Set, err error) {
			if set != nil {
				printWarnings(cmd.ErrOrStderr(), set.Warnings)
			}
			switch {
			case !started:
				started = true
			case err != nil:
				log.Error("customizations not reloaded: keeping the previous ones", "error", err)
			default:
				log.Info("customizations reloaded", "customizations", len(set.Customizations))
			}
		},
	}
	if err := reloader.Start(ctx); err != nil {
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
// go to the command's standard error.
func setWebhookLayer(cmd *cobra.Command, reg *interpreter.Registry, paths []string) error {
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
	layer, err := client.New(loaded.Configurations)
	if err != nil {
		return fmt.Errorf("--webhook-config: %w", err)
	}
	reg.Set(interpreter.LayerWebhook, layer)
	return nil
}
