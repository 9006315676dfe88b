package controller

import (
	"log/slog"
	"sync"

	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/overrides"
)

// policyCache is the compiled set of the OverridePolicies and
// ClusterOverridePolicies, compiled again after any of them changed.
type policyCache struct {
	log *slog.Logger

	mu  sync.Mutex
	set *overrides.Set // nil when stale
}

func newPolicyCache(log *slog.Logger) *policyCache { return &policyCache{log: log} }

func (p *policyCache) invalidate() {
	p.mu.Lock()
	p.set = nil
	p.mu.Unlock()
}

// get returns the compiled policies of the informers' stores. A policy
// that does not decode or compile is logged and left out, so that it
// does not stop the others from applying; Karmada's admission refuses
// such policies before they are stored.
func (p *policyCache) get(stores ...cache.Store) *overrides.Set {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.set != nil {
		return p.set
	}
	var good []api.OverridePolicy
	for _, store := range stores {
		for _, obj := range store.List() {
			u := unwrap(obj)
			if u == nil {
				continue
			}
			var policy api.OverridePolicy
			err := decode(u, &policy)
			if err == nil {
				_, err = overrides.NewSet([]api.OverridePolicy{policy})
			}
			if err != nil {
				p.log.Error("override policy left out", "kind", u.GetKind(), "name", objectName(u), "error", err)
				continue
			}
			good = append(good, policy)
		}
	}
	set, err := overrides.NewSet(good)
	if err != nil { // each compiled alone above
		p.log.Error("override policies left out", "error", err)
		set, _ = overrides.NewSet(nil)
	}
	p.set = set
	return set
}
