package main

import (
	"net/http"
	"net/http/pprof"

	"github.com/spf13/pflag"
)

// profilingPath is where --profiling serves Go's profiles.
const profilingPath = "/debug/pprof/"

func addProfilingFlag(f *pflag.FlagSet, on *bool) {
	f.BoolVar(on, "profiling", false, "also serve Go's profiles (net/http/pprof) under "+profilingPath+" on the metrics address: a heap profile of the live objects is "+profilingPath+"heap?gc=1 (go tool pprof -sample_index=inuse_space)")
}

// withProfiling adds net/http/pprof's handlers to mux when on.
func withProfiling(mux *http.ServeMux, on bool) *http.ServeMux {
	if on {
		mux.HandleFunc(profilingPath, pprof.Index)
		mux.HandleFunc(profilingPath+"cmdline", pprof.Cmdline)
		mux.HandleFunc(profilingPath+"profile", pprof.Profile)
		mux.HandleFunc(profilingPath+"symbol", pprof.Symbol)
		mux.HandleFunc(profilingPath+"trace", pprof.Trace)
	}
	return mux
}
