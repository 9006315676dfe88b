package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/kube/controller"
)

// failoverFlags are the flags of `luainterp controller` that run the
// failover controllers (docs/failover.md, "In the controller").
type failoverFlags struct {
	application        bool
	eviction           bool
	evictionTimeout    time.Duration
	evictionGate       bool
	taintEviction      bool
	taintEvictionPurge string
}

func (o *failoverFlags) addFlags(f *pflag.FlagSet) {
	f.BoolVar(&o.application, "application-failover", false, "run application failover: evict a binding's cluster once its aggregatedStatus reports it Unhealthy for longer than spec.failover.application's toleration")
	f.BoolVar(&o.eviction, "graceful-eviction", false, "run graceful eviction: stamp the bindings' eviction tasks and drop them once the new clusters are Healthy or the task times out")
	f.DurationVar(&o.evictionTimeout, "graceful-eviction-timeout", failover.DefaultEvictionTimeout, "how long an eviction task without gracePeriodSeconds lives at most")
	f.BoolVar(&o.evictionGate, "graceful-eviction-gate", true, "Karmada's GracefulEviction feature gate: without it an application failover purged Gracefully fails")
	f.BoolVar(&o.taintEviction, "enable-no-execute-taint-eviction", false, "run the taint manager: evict a binding's cluster once the Cluster has a NoExecute taint the binding's applied placement does not tolerate")
	f.StringVar(&o.taintEvictionPurge, "no-execute-taint-eviction-purge-mode", api.PurgeModeGracefully, "the purge mode of a taint eviction for a binding without spec.failover.cluster: Gracefully or Directly")
}

func (o *failoverFlags) check() error {
	switch {
	case o.evictionTimeout <= 0:
		return fmt.Errorf("--graceful-eviction-timeout: want more than 0, got %s", o.evictionTimeout)
	}
	switch api.CanonicalPurgeMode(o.taintEvictionPurge) {
	case api.PurgeModeDirectly, api.PurgeModeGracefully:
		return nil
	}
	return fmt.Errorf("--no-execute-taint-eviction-purge-mode: want Gracefully or Directly, got %q", o.taintEvictionPurge)
}

// options are the controller's options for these flags; injection is
// --stateful-failover-injection.
func (o *failoverFlags) options(injection bool) []controller.Option {
	opts := []controller.Option{controller.WithFailoverGates(failover.Gates{
		StatefulFailoverInjection: injection,
		GracefulEviction:          o.evictionGate,
	})}
	if o.application {
		opts = append(opts, controller.WithApplicationFailover())
	}
	if o.eviction {
		opts = append(opts, controller.WithGracefulEviction(o.evictionTimeout))
	}
	if o.taintEviction {
		opts = append(opts, controller.WithTaintManager(o.taintEvictionPurge))
	}
	return opts
}
