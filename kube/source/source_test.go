package source_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/source"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// replicasOf returns what the registry answers InterpretReplica for a widget
// of kind, or -1 when it fails.
func replicasOf(reg *interpreter.Registry, kind string) int32 {
	n, _, err := reg.GetReplicas(context.Background(), widget(kind))
	if err != nil {
		return -1
	}
	return n
}

func TestSourceFollowsCustomizations(t *testing.T) {
	cfg := env.Config(t)
	live := startSource(t, cfg)
	rics := newObjects(t, cfg, source.CustomizationResource)
	const kind = "Lifecycle"

	require.Equal(t, int32(-1), replicasOf(live.reg, kind), "before any customization")
	rics.create(replicaCustomization(t, "lifecycle", kind, returning(1)))
	took := eventually(t, "created customization used", func() bool { return replicasOf(live.reg, kind) == 1 })
	t.Logf("create -> used in %s", took)

	rics.update(replicaCustomization(t, "lifecycle", kind, returning(2)))
	took = eventually(t, "updated customization used", func() bool { return replicasOf(live.reg, kind) == 2 })
	t.Logf("update -> used in %s", took)

	rics.delete("lifecycle")
	took = eventually(t, "deleted customization gone", func() bool { return replicasOf(live.reg, kind) == -1 })
	t.Logf("delete -> gone in %s", took)

	assert.Equal(t, 2.0, live.loads(t, source.CustomizationKind, "loaded"))
	assert.Equal(t, 1.0, live.loads(t, source.CustomizationKind, "deleted"))
	assert.Contains(t, live.log.String(), `msg="loaded 0 customizations and 0 webhook configurations from the API server, 0 and 0 from files"`)
}

func TestSourceKeepsBadObjectsOut(t *testing.T) {
	cfg := env.Config(t)
	live := startSource(t, cfg)
	rics := newObjects(t, cfg, source.CustomizationResource)
	const kind = "Broken"
	const other = "Bystander"

	rics.create(replicaCustomization(t, "bystander", other, returning(5)))
	rics.create(replicaCustomization(t, "broken", kind, returning(1)))
	eventually(t, "good version used", func() bool { return replicasOf(live.reg, kind) == 1 })

	t.Run("a broken update keeps the last good version", func(t *testing.T) {
		rics.update(replicaCustomization(t, "broken", kind, "function GetReplicas(obj)\n  return 2 +\nend\n"))
		eventually(t, "LoadFailed event", func() bool { return len(events(t, cfg, "broken", source.ReasonLoadFailed)) > 0 })
		assert.Equal(t, int32(1), replicasOf(live.reg, kind))
		assert.Equal(t, int32(5), replicasOf(live.reg, other), "the other customization applies")
		e := events(t, cfg, "broken", source.ReasonLoadFailed)[0]
		assert.Equal(t, "Warning", e.Type)
		assert.Equal(t, "ResourceInterpreterCustomization", e.InvolvedObject.Kind)
		assert.Regexp(t, `^not loaded \(resourceVersion \d+ still serves\): resourceinterpretercustomization/broken:\d+: document 1 "broken": spec\.customizations\.replicaResource\.luaScript: Lua line 3: `, e.Message)
		problems := live.source.Problems()
		require.Len(t, problems, 1)
		assert.Equal(t, "broken", problems[0].Name)
		assert.Contains(t, live.log.String(), `msg="not loaded: resourceVersion`)
		assert.Equal(t, 1.0, live.loads(t, source.CustomizationKind, "invalid"))
	})
	t.Run("a fixed version is used again", func(t *testing.T) {
		rics.update(replicaCustomization(t, "broken", kind, returning(3)))
		eventually(t, "fixed version used", func() bool { return replicasOf(live.reg, kind) == 3 })
		assert.Empty(t, live.source.Problems())
	})
	t.Run("a new broken object never serves", func(t *testing.T) {
		rics.create(replicaCustomization(t, "never", "Never", "function GetReplica(obj) return 1 end"))
		eventually(t, "LoadFailed event", func() bool { return len(events(t, cfg, "never", source.ReasonLoadFailed)) > 0 })
		assert.Equal(t, int32(-1), replicasOf(live.reg, "Never"))
		e := events(t, cfg, "never", source.ReasonLoadFailed)[0]
		assert.Contains(t, e.Message, "not loaded (nothing of it serves): ")
		assert.Contains(t, e.Message, "GetReplicas")
	})
}

func TestSourceMergesFiles(t *testing.T) {
	cfg := env.Config(t)
	const kind = "Merged"
	files, err := customization.Parse("files.yaml", []byte(`
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: shared-name
spec:
  target: {apiVersion: example.io/v1, kind: Merged}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj) return 10, nil end
`))
	require.NoError(t, err)
	rics := newObjects(t, cfg, source.CustomizationResource)
	rics.create(replicaCustomization(t, "shared-name", kind, returning(20)))
	rics.create(replicaCustomization(t, "merged-other", "MergedOther", returning(30)))
	live := startSource(t, cfg, source.WithFiles(files))

	assert.Equal(t, int32(10), replicasOf(live.reg, kind), "the file wins over the object of its name")
	assert.Equal(t, int32(30), replicasOf(live.reg, "MergedOther"), "the other object applies")
	assert.Contains(t, live.log.String(), `left out: a customization of this name is already loaded from files.yaml`)
	assert.Contains(t, live.log.String(), "loaded 2 customizations and 0 webhook configurations from the API server, 1 and 0 from files")

	live.source.SetFiles(nil, nil)
	eventually(t, "the object once the file is gone", func() bool { return replicasOf(live.reg, kind) == 20 })
}

func TestSourceAccess(t *testing.T) {
	nobody := env.User(t, "nobody")
	s, err := source.New(nobody, interpreter.NewRegistry(), luavm.New())
	require.NoError(t, err)
	err = s.Start(context.Background())
	var access *source.AccessError
	require.True(t, errors.As(err, &access), "Start: %v", err)
	assert.Equal(t, `forbidden: user "nobody" may not list resourceinterpretercustomizations.config.karmada.io, `+
		`watch resourceinterpretercustomizations.config.karmada.io, list resourceinterpreterwebhookconfigurations.config.karmada.io, `+
		`watch resourceinterpreterwebhookconfigurations.config.karmada.io (grant them with a ClusterRole, as deploy/rbac.yaml does)`, err.Error())
}

func TestSourceKeepsEmptiedCustomizations(t *testing.T) {
	cfg := env.Config(t)
	live := startSource(t, cfg)
	rics := newObjects(t, cfg, source.CustomizationResource)
	const kind = "Emptied"
	rics.create(replicaCustomization(t, "emptied", kind, returning(1)))
	eventually(t, "good version used", func() bool { return replicasOf(live.reg, kind) == 1 })

	tests := []struct {
		name           string
		customizations string
	}{
		{"spec.customizations emptied", "{}"},
		{"its only key set to null (the API server prunes it)", "{replicaResource: null}"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := int32(10 + i)
			rics.update(replicaCustomization(t, "emptied", kind, returning(int(good))))
			eventually(t, "good version used", func() bool { return replicasOf(live.reg, kind) == good })
			rics.update(object(t, `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: emptied}
spec:
  target: {apiVersion: example.io/v1, kind: Emptied}
  customizations: `+tt.customizations+"\n"))
			eventually(t, "refused", func() bool { return live.loads(t, source.CustomizationKind, "emptied") == float64(i+1) })
			assert.Equal(t, good, replicasOf(live.reg, kind), "the last good version serves")
			require.Len(t, live.source.Problems(), 1)
			eventually(t, "EmptyRefused event", func() bool { return len(events(t, cfg, "emptied", source.ReasonEmptyRefused)) > 0 })
			e := events(t, cfg, "emptied", source.ReasonEmptyRefused)[0]
			assert.Equal(t, "Warning", e.Type)
			assert.Regexp(t, `^not loaded \(resourceVersion \d+ still serves\): resourceinterpretercustomization/emptied: defines no operation, `+
				`where its last good version defines "emptied" \(replicaResource\): refused as empty or cut short; delete the object to remove its hooks$`, e.Message)
			assert.Contains(t, live.log.String(), `level=WARN msg="not loaded: resourceVersion`)
		})
	}
	rics.delete("emptied")
	eventually(t, "deleted customization gone", func() bool { return replicasOf(live.reg, kind) == -1 })
	assert.Empty(t, live.source.Problems())
}
