package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"time"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
)

// MaxBody bounds the JSON body of one API call.
const MaxBody = 4 << 20

// RegistryFunc builds the registry that answers a run: the layers below
// with the customizations of set on top.
type RegistryFunc func(set *customization.Set) (*interpreter.Registry, error)

// SuiteLayerFunc builds the interpreter test cases run against, recording
// coverage into cov.
type SuiteLayerFunc func(cov *luavm.Coverage) testsuite.LayerFunc

// Server is the playground's page and API; it is an http.Handler.
type Server struct {
	registry   RegistryFunc
	suiteLayer SuiteLayerFunc
	start      Start
	timeout    time.Duration
	log        *slog.Logger
	mux        *http.ServeMux
}

// Option configures a Server.
type Option func(*Server)

// WithRegistry answers runs from the registries fn builds.
func WithRegistry(fn RegistryFunc) Option { return func(s *Server) { s.registry = fn } }

// WithSuiteLayer runs test cases on the layers fn builds.
func WithSuiteLayer(fn SuiteLayerFunc) Option { return func(s *Server) { s.suiteLayer = fn } }

// WithStart makes the page start from st instead of the starter example.
func WithStart(st Start) Option { return func(s *Server) { s.start = st } }

// WithTimeout bounds one API call (luavm.DefaultTimeout by default); each
// script call has the engine's own deadline too.
func WithTimeout(d time.Duration) Option { return func(s *Server) { s.timeout = d } }

// WithLogger logs the calls that fail unexpectedly to log.
func WithLogger(log *slog.Logger) Option { return func(s *Server) { s.log = log } }

// New returns the playground's server.
func New(opts ...Option) *Server {
	s := &Server{start: Starter(), timeout: luavm.DefaultTimeout, log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(s)
	}
	if s.registry == nil {
		engine := luavm.New()
		s.registry = func(set *customization.Set) (*interpreter.Registry, error) {
			layer, err := customization.NewLayer(engine, set)
			if err != nil {
				return nil, err
			}
			return interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer), nil
		}
	}
	if s.suiteLayer == nil {
		s.suiteLayer = func(cov *luavm.Coverage) testsuite.LayerFunc {
			return func(set *customization.Set) (interpreter.Interpreter, error) {
				return customization.NewLayer(luavm.New(luavm.WithCoverage(cov)), set)
			}
		}
	}
	assets, _ := fs.Sub(assetFS, "assets")
	s.mux = http.NewServeMux()
	s.mux.Handle("GET /", http.FileServerFS(assets))
	s.mux.HandleFunc("GET /api/start", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, s.start) })
	s.mux.HandleFunc("POST /api/run", api(s, s.run))
	s.mux.HandleFunc("POST /api/runall", api(s, s.runAll))
	s.mux.HandleFunc("POST /api/test", api(s, s.test))
	s.mux.HandleFunc("POST /api/testcase", api(s, s.testCase))
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// badRequest is an error of the caller's request itself, answered 400.
type badRequest struct{ err error }

func (e badRequest) Error() string { return e.err.Error() }
func (e badRequest) Unwrap() error { return e.err }

// api adapts a handler of a decoded request: the body is read strictly
// into In, within MaxBody, and what the handler returns is the answer; a
// panic is answered 500 instead of ending the server.
func api[In, Out any](s *Server, handle func(*http.Request, *In) (Out, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("playground: call panicked", "path", r.URL.Path, "panic", p)
				writeJSON(w, http.StatusInternalServerError, errorBody(fmt.Sprintf("internal error: %v", p)))
			}
		}()
		if err := sameOrigin(r); err != nil {
			writeJSON(w, http.StatusForbidden, errorBody(err.Error()))
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			writeJSON(w, http.StatusUnsupportedMediaType, errorBody("request body: want Content-Type application/json"))
			return
		}
		in := new(In)
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(in); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody("request body: "+err.Error()))
			return
		}
		out, err := handle(r, in)
		var bad badRequest
		switch {
		case errors.As(err, &bad):
			writeJSON(w, http.StatusBadRequest, errorBody(err.Error()))
		case err != nil:
			s.log.Error("playground: call failed", "path", r.URL.Path, "err", err)
			writeJSON(w, http.StatusInternalServerError, errorBody(err.Error()))
		default:
			writeJSON(w, http.StatusOK, out)
		}
	}
}

// sameOrigin refuses a call a browser sends from another site's page: a
// page may POST to a server on loopback, but its Origin then names
// another host than the one the call is for.
func sameOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host != r.Host {
		return fmt.Errorf("a call from the page of %s is refused: only the playground's own page may call its API", origin)
	}
	return nil
}

func errorBody(msg string) map[string]*Error { return map[string]*Error{"error": {Message: msg}} }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
