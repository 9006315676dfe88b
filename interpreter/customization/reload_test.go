package customization

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// replicasHook is a Widget customization whose GetReplicas returns n.
func replicasHook(n string) string {
	return doc(
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: widget}",
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: Widget}",
		"  customizations:",
		"    replicaResource:",
		"      luaScript: function GetReplicas(obj) return "+n+", nil end",
	)
}

// replace writes contents to path the way editors do: a temporary file
// renamed over the old one.
func replace(t *testing.T, path, contents string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	require.NoError(t, os.WriteFile(tmp, []byte(contents), 0o644))
	require.NoError(t, os.Rename(tmp, path))
}

// loadLog records the outcome of every load a Reloader reports.
type loadLog struct {
	mu    sync.Mutex
	loads []error
}

func (l *loadLog) onLoad(_ *Set, err error) {
	l.mu.Lock()
	l.loads = append(l.loads, err)
	l.mu.Unlock()
}

func (l *loadLog) all() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.loads)
}

// widgetReloader returns a Reloader of a new registry, watching a new
// directory holding widget.yaml with replicasHook("1"), and its loads.
func widgetReloader(t *testing.T) (r *Reloader, dir string, log *loadLog) {
	t.Helper()
	dir = writeFiles(t, map[string]string{"widget.yaml": replicasHook("1")})
	log = &loadLog{}
	r = &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{dir},
		Settle: 10 * time.Millisecond, OnLoad: log.onLoad}
	return r, dir, log
}

func TestReloader(t *testing.T) {
	r, dir, log := widgetReloader(t)
	reg := r.Registry
	require.NoError(t, r.Load())

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	defer func() { cancel(); require.NoError(t, <-done) }()

	replicas := func() int32 {
		n, _, err := reg.GetReplicas(context.Background(), widgetObject(0))
		if err != nil {
			return -1
		}
		return n
	}
	lastLoad := func() (int, error) {
		loads := log.all()
		return len(loads), loads[len(loads)-1]
	}
	require.Equal(t, int32(1), replicas())
	// Run loads once more when it watches; from then on no change is missed.
	require.Eventually(t, func() bool { n, _ := lastLoad(); return n >= 2 }, 5*time.Second, 10*time.Millisecond)

	t.Run("a changed file is reloaded", func(t *testing.T) {
		replace(t, filepath.Join(dir, "widget.yaml"), replicasHook("2"))
		assert.Eventually(t, func() bool { return replicas() == 2 }, 5*time.Second, 10*time.Millisecond)
	})
	t.Run("a broken file keeps the last layer", func(t *testing.T) {
		n, _ := lastLoad()
		replace(t, filepath.Join(dir, "widget.yaml"), replicasHook("2 +"))
		require.Eventually(t, func() bool { m, _ := lastLoad(); return m > n }, 5*time.Second, 10*time.Millisecond)
		_, err := lastLoad()
		require.Error(t, err)
		assert.Contains(t, err.Error(), filepath.Join(dir, "widget.yaml")+`:8: document 1 "widget": spec.customizations.replicaResource.luaScript: Lua line 1: `)
		assert.Equal(t, int32(2), replicas())
	})
	t.Run("a new file in a new directory is picked up", func(t *testing.T) {
		require.NoError(t, os.Mkdir(filepath.Join(dir, "more"), 0o755))
		replace(t, filepath.Join(dir, "widget.yaml"), replicasHook("3"))
		assert.Eventually(t, func() bool { return replicas() == 3 }, 5*time.Second, 10*time.Millisecond)
		replace(t, filepath.Join(dir, "more", "gadget.yaml"), replicasHook("4"))
		// widget.yaml and more/gadget.yaml now both name "widget": the reload fails, 3 stays.
		require.Eventually(t, func() bool { _, err := lastLoad(); return err != nil }, 5*time.Second, 10*time.Millisecond)
		assert.Equal(t, int32(3), replicas())
	})
}

func TestReloaderRefusesStdin(t *testing.T) {
	r := &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{"-"}}
	assert.EqualError(t, r.Run(context.Background()), "standard input cannot be watched")
}

func TestReloaderStart(t *testing.T) {
	r, dir, log := widgetReloader(t)
	reg := r.Registry
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	require.NoError(t, r.Start(ctx))
	assert.Equal(t, []error{nil}, log.all(), "Start loads once, and reports it")
	n, _, err := reg.GetReplicas(context.Background(), widgetObject(0))
	require.NoError(t, err)
	assert.Equal(t, int32(1), n)

	replace(t, filepath.Join(dir, "widget.yaml"), replicasHook("2"))
	assert.Eventually(t, func() bool {
		n, _, err := reg.GetReplicas(context.Background(), widgetObject(0))
		return err == nil && n == 2
	}, 5*time.Second, 10*time.Millisecond, "a change after Start is reloaded")

	t.Run("a file that does not load", func(t *testing.T) {
		broken := writeFiles(t, map[string]string{"widget.yaml": replicasHook("2 +")})
		reg := interpreter.NewRegistry()
		r := &Reloader{Registry: reg, Engine: luavm.New(), Paths: []string{broken}}
		err := r.Start(ctx)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `widget.yaml:8: document 1 "widget": spec.customizations.replicaResource.luaScript: Lua line 1: `)
		assert.Nil(t, reg.Get(interpreter.LayerCustomization), "nothing is installed")
	})
	t.Run("standard input", func(t *testing.T) {
		r := &Reloader{Registry: interpreter.NewRegistry(), Engine: luavm.New(), Paths: []string{"-"}}
		assert.EqualError(t, r.Start(ctx), "standard input cannot be watched")
	})
}

// configMapVolume lays out dir as the kubelet mounts a ConfigMap: the files
// in a timestamped folder, a "..data" symlink to it, and for each file a
// symlink "name -> ..data/name".
func configMapVolume(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	ts := writeConfigMapVersion(t, dir, "..2026_12_01_00_00_00.000000001", files)
	require.NoError(t, os.Symlink(ts, filepath.Join(dir, "..data")))
	for name := range files {
		require.NoError(t, os.Symlink(filepath.Join("..data", name), filepath.Join(dir, name)))
	}
}

func writeConfigMapVersion(t *testing.T, dir, version string, files map[string]string) string {
	t.Helper()
	require.NoError(t, os.Mkdir(filepath.Join(dir, version), 0o755))
	for name, contents := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, version, name), []byte(contents), 0o644))
	}
	return version
}

// updateConfigMapVolume updates dir as the kubelet updates a mounted
// ConfigMap: the new files in a new timestamped folder, a "..data_tmp"
// symlink to it renamed over "..data" (the atomic swap), the old folder removed.
func updateConfigMapVolume(t *testing.T, dir, version string, files map[string]string) {
	t.Helper()
	old, err := os.Readlink(filepath.Join(dir, "..data"))
	require.NoError(t, err)
	ts := writeConfigMapVersion(t, dir, version, files)
	require.NoError(t, os.Symlink(ts, filepath.Join(dir, "..data_tmp")))
	require.NoError(t, os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, old)))
}

func TestReloaderConfigMapVolume(t *testing.T) {
	tests := []struct {
		name string
		path func(dir string) string
	}{
		{"-f names the mounted directory", func(dir string) string { return dir }},
		{"-f names a file in it", func(dir string) string { return filepath.Join(dir, "widget.yaml") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			configMapVolume(t, dir, map[string]string{"widget.yaml": replicasHook("1")})
			log := &loadLog{}
			reg := interpreter.NewRegistry()
			r := &Reloader{Registry: reg, Engine: luavm.New(), Paths: []string{tt.path(dir)}, Settle: 10 * time.Millisecond, OnLoad: log.onLoad}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			require.NoError(t, r.Start(ctx))
			replicas := func() int32 {
				n, _, err := reg.GetReplicas(context.Background(), widgetObject(0))
				if err != nil {
					return -1
				}
				return n
			}
			require.Equal(t, int32(1), replicas(), "the files behind the symlinks are read once")

			updateConfigMapVolume(t, dir, "..2026_12_01_00_01_00.000000002", map[string]string{"widget.yaml": replicasHook("2")})
			assert.Eventually(t, func() bool { return replicas() == 2 }, 5*time.Second, 10*time.Millisecond, "the ..data swap reloads")
			updateConfigMapVolume(t, dir, "..2026_12_01_00_02_00.000000003", map[string]string{"widget.yaml": replicasHook("3")})
			assert.Eventually(t, func() bool { return replicas() == 3 }, 5*time.Second, 10*time.Millisecond, "and the next one too")
			for _, err := range log.all() {
				assert.NoError(t, err)
			}
		})
	}
}
