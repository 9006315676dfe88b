package argocd_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// FuzzHealth runs any text as a health check: the call returns a status
// Argo CD knows (or the empty health) or an error, and never panics or
// hangs. Seeded from the fixture tree's health checks.
func FuzzHealth(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(fixtureTree, "resource_customizations", "*", "*", "health.lua"))
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	engine := luavm.New(luavm.WithTimeout(50 * time.Millisecond))
	statuses := []argocd.HealthStatusCode{"", argocd.Healthy, argocd.Progressing, argocd.Degraded, argocd.Suspended, argocd.Missing, argocd.Unknown}
	f.Fuzz(func(t *testing.T, script string) {
		overrides, err := argocd.ParseConfigMap("cm", map[string]string{"resource.customizations.health.example.com_Gadget": script})
		if err != nil {
			t.Fatal(err)
		}
		h, err := argocd.New(engine, argocd.NewCustomizations(nil, overrides...)).Health(context.Background(), gadget())
		if err == nil && !slices.Contains(statuses, h.Status) {
			t.Fatalf("status %q", h.Status)
		}
	})
}
