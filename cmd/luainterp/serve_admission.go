package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/admission"
)

// admissionOptions are the flags of serve's admission reviews: the engine
// of their own that vets the scripts they send, the limits of the path,
// and the client certificate its callers must present.
type admissionOptions struct {
	poolSize            int
	deadline            time.Duration
	runRate             float64
	runBurst            int
	limits              admission.Limits
	clientCA            string
	clientCAInterpreter bool
}

// The admission engine's defaults: one state, a deadline that a top
// level defining functions never comes near, and at most a run a second
// (with bursts of 2): a quarter of a core at worst, whatever is posted.
const (
	defaultAdmissionPoolSize = 1
	defaultAdmissionDeadline = 250 * time.Millisecond
	defaultAdmissionRunRate  = 1
	defaultAdmissionRunBurst = 2
)

func (a *admissionOptions) addFlags(f *pflag.FlagSet) {
	a.limits = admission.DefaultLimits()
	f.IntVar(&a.poolSize, "admission-pool-size", defaultAdmissionPoolSize, "Lua states of the admission engine, which runs a reviewed script only when its syntax cannot tell whether it loads; never the serving engine's")
	f.DurationVar(&a.deadline, "admission-deadline", defaultAdmissionDeadline, "the longest a reviewed script's top level may run on the admission engine")
	f.Float64Var(&a.runRate, "admission-run-rate", defaultAdmissionRunRate, "reviewed scripts a second that may run on the admission engine; past it a review that needs a run is answered 429")
	f.IntVar(&a.runBurst, "admission-run-burst", defaultAdmissionRunBurst, "reviewed scripts that may run at once past --admission-run-rate")
	f.IntVar(&a.limits.MaxRequests, "admission-max-requests", a.limits.MaxRequests, "admission reviews checked at once")
	f.IntVar(&a.limits.MaxPending, "admission-max-pending", a.limits.MaxPending, "admission reviews that wait for one of those; further ones are answered 503 at once")
	f.DurationVar(&a.limits.MaxWait, "admission-max-wait", a.limits.MaxWait, "the longest an admission review waits for a slot before it is answered 503")
	f.Float64Var(&a.limits.Rate, "admission-rate", a.limits.Rate, "admission reviews a second; past it they are answered 429 at once (0: no limit)")
	f.IntVar(&a.limits.Burst, "admission-burst", a.limits.Burst, "admission reviews at once past --admission-rate")
	f.StringVar(&a.clientCA, "client-ca", "", "PEM file of the CAs whose client certificates the admission path requires (the API server's, from its AdmissionConfiguration kubeconfig); needs --tls-cert")
	f.BoolVar(&a.clientCAInterpreter, "client-ca-interpreter", false, "require a certificate of --client-ca on the interpreter path too (Karmada's webhook client)")
}

func (a *admissionOptions) check(tlsCert string) error {
	switch {
	case a.poolSize < 1:
		return fmt.Errorf("--admission-pool-size %d: must be 1 or more", a.poolSize)
	case a.deadline <= 0:
		return fmt.Errorf("--admission-deadline %s: must be more than 0", a.deadline)
	case a.runRate <= 0 || a.runBurst < 1:
		return fmt.Errorf("--admission-run-rate %g, --admission-run-burst %d: must be more than 0, and 1 or more", a.runRate, a.runBurst)
	case a.clientCA != "" && tlsCert == "":
		return errors.New("--client-ca: client certificates need TLS: give --tls-cert and --tls-key")
	case a.clientCAInterpreter && a.clientCA == "":
		return errors.New("--client-ca-interpreter: give --client-ca")
	}
	if err := a.limits.Validate(); err != nil {
		return fmt.Errorf("--admission-*: %w", err)
	}
	return nil
}

// validator returns the admission validator on an engine of its own,
// its metrics and the engine's runs registered with reg; existing gives
// the customizations stored (nil: none).
func (a *admissionOptions) validator(existing func() []*customization.Customization, log *slog.Logger, reg prometheus.Registerer) (*admission.Validator, error) {
	engine := luavm.New(luavm.WithMaxStates(a.poolSize), luavm.WithTimeout(a.deadline), luavm.WithRunRate(a.runRate, a.runBurst))
	metrics := admission.NewMetrics()
	reg.MustRegister(metrics, engineRuns("admission", engine))
	return admission.New(engine, admission.WithExisting(existing), admission.WithLogger(log), admission.WithLimits(a.limits), admission.WithMetrics(metrics))
}

// engineRuns is luainterp_engine_chunk_runs_total{engine=name}: the
// scripts' chunks run on engine (luavm.Engine.Runs).
func engineRuns(name string, engine *luavm.Engine) prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{
		Namespace: "luainterp", Subsystem: "engine", Name: "chunk_runs_total",
		Help:        "Scripts' chunks run on a Lua engine: interpreter (the tenants' calls, and loading) or admission (reviews whose syntax could not tell).",
		ConstLabels: prometheus.Labels{"engine": name},
	}, func() float64 { return float64(engine.Runs()) })
}

// requireClientCerts sets up cfg to ask for client certificates signed
// by the CAs of --client-ca; nothing without it. A connection without one
// is still accepted (probes, /metrics): requireClientCert refuses it on
// the paths that need one.
func (a *admissionOptions) requireClientCerts(cfg *tls.Config) error {
	if a.clientCA == "" {
		return nil
	}
	data, err := os.ReadFile(a.clientCA)
	if err != nil {
		return fmt.Errorf("--client-ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return fmt.Errorf("--client-ca: %s holds no PEM certificate", a.clientCA)
	}
	cfg.ClientCAs, cfg.ClientAuth = pool, tls.VerifyClientCertIfGiven
	return nil
}

// requireClientCert answers through h only a request whose TLS client
// certificate the handshake verified against --client-ca; others get
// 401. Without --client-ca, or for the interpreter path without
// --client-ca-interpreter, it returns h.
func (a *admissionOptions) requireClientCert(h http.Handler, interpreterPath bool) http.Handler {
	if a.clientCA == "" || interpreterPath && !a.clientCAInterpreter {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || len(r.TLS.VerifiedChains) == 0 {
			http.Error(w, "a client certificate signed by a CA of --client-ca is required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
