package source_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/kube/source"
)

// TestSourceConflict runs two replicas while two customizations of one
// kind's operation appear, the later name first: both replicas use the
// one first in name order, the other gets a Conflict Warning naming it
// within 10s, and the conflict is counted and listed.
func TestSourceConflict(t *testing.T) {
	cfg := env.Config(t)
	replicas := []*live{startSource(t, cfg), startSource(t, cfg)}
	rics := newObjects(t, cfg, source.CustomizationResource)
	const kind = "Duel"

	rics.create(replicaCustomization(t, "duel-b", kind, returning(2)))
	for _, r := range replicas {
		eventually(t, "duel-b used alone", func() bool { return replicasOf(r.reg, kind) == 2 })
	}
	rics.create(replicaCustomization(t, "duel-a", kind, returning(1)))
	created := time.Now()
	for i, r := range replicas {
		eventually(t, "duel-a used", func() bool { return replicasOf(r.reg, kind) == 1 })
		assert.Equal(t, 1.0, r.sample(t, "luainterp_kube_objects", map[string]string{"kind": source.CustomizationKind, "state": "conflicting"}), "replica %d", i)
		conflicts := r.source.Conflicts()
		require.Len(t, conflicts, 1, "replica %d", i)
		assert.Equal(t, "duel-a", conflicts[0].Used.Name)
		assert.Equal(t, "duel-b", conflicts[0].Unused.Name)
		assert.Equal(t, interpreter.InterpretReplica, conflicts[0].Operation)
	}
	for {
		got := events(t, cfg, "duel-b", source.ReasonConflict)
		if len(got) > 0 {
			messages := sets.New[string]()
			for _, e := range got {
				messages.Insert(e.Message)
				assert.Equal(t, "Warning", e.Type)
			}
			assert.Equal(t, []string{`not used for replicaResource of example.io/v1, Kind=Duel: "duel-a" defines it too and is used (customizations apply in name order, the first wins)`},
				sets.List(messages), "each replica tells the same")
			break
		}
		require.Less(t, time.Since(created), 10*time.Second, "no Conflict Event on duel-b within 10s")
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("Conflict Event %s after duel-a was created", time.Since(created).Round(time.Millisecond))
	assert.Empty(t, events(t, cfg, "duel-a", source.ReasonConflict), "the customization used gets none")

	rics.delete("duel-a")
	for i, r := range replicas {
		eventually(t, "duel-b used again", func() bool { return replicasOf(r.reg, kind) == 2 })
		assert.Empty(t, r.source.Conflicts(), "replica %d", i)
		assert.Equal(t, 0.0, r.sample(t, "luainterp_kube_objects", map[string]string{"kind": source.CustomizationKind, "state": "conflicting"}), "replica %d", i)
	}
}
