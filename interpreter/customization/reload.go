package customization

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// DefaultSettle is how long a Reloader waits after the last change of a
// file before reloading, so that an editor's write-rename-chmod is one reload.
const DefaultSettle = 100 * time.Millisecond

// Reloader keeps the customization layer of a Registry in step with files
// and directories: Load installs it once, Run reloads it whenever they
// change, and Start does both.
//
// Each file loads on its own. A file whose new contents do not load (a
// YAML error, an unknown field, a script that does not compile) keeps its
// last good version serving, and so does one whose contents look caught
// empty or cut short (see EmptiedError), while the other files' changes
// apply. Deleting a file removes its customizations. A name used by two
// files serves from the one that had it first.
type Reloader struct {
	Registry *interpreter.Registry
	Engine   *luavm.Engine
	Paths    []string // files and directories, as for Load; "-" cannot be watched
	// OnLoad, when set, is told the outcome of every load: the Set
	// serving (every file's last good version, merged; nil when no layer
	// was installed) and the error naming every file whose contents last
	// read do not serve and every path that cannot be read, or nil when
	// everything read serves. A watch that fails is told with a nil Set.
	OnLoad func(*Set, error)
	// OnFile, when set, is told what each load did with each file whose
	// contents changed or that is gone, before OnLoad.
	OnFile func(FileReload)
	// Settle is how long to wait for changes to stop (DefaultSettle when zero).
	Settle time.Duration

	mu        sync.Mutex
	files     fileSet
	installed bool // a layer was installed
}

// Load reads the paths, loads the files that changed and installs the
// layer of every file's last good version as the registry's
// LayerCustomization. It returns the error naming what does not serve
// (see OnLoad); the first Load to install a layer installs none when
// there is one, so that a program does not start with a broken file.
func (r *Reloader) Load() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	read, readErr := (&manifest.Reader{}).Read(r.Paths...)
	reports := r.files.update(r.Engine, read, readErr)
	err := r.files.err()
	var set *Set
	if r.installed || err == nil {
		set = r.files.serving()
		layer, layerErr := NewLayer(r.Engine, set)
		if layerErr != nil {
			// Not expected: every file's version compiled on its own.
			err, set = errors.Join(err, layerErr), nil
		} else {
			r.Registry.Set(interpreter.LayerCustomization, layer)
			r.installed = true
		}
	}
	if r.OnFile != nil {
		for _, f := range reports {
			r.OnFile(f)
		}
	}
	if r.OnLoad != nil {
		r.OnLoad(set, err)
	}
	return err
}

// Start installs the layer and keeps it in step with the files until ctx
// is done: it places the watches, loads (returning the error, which leaves
// the registry as it was, and watches nothing), then reloads after each
// change in a goroutine of its own. It is Load and Run in one, loading once
// at the start instead of twice; OnLoad is told of every load from the first.
func (r *Reloader) Start(ctx context.Context) error {
	w, err := r.newWatcher()
	if err != nil {
		return err
	}
	if err := r.Load(); err != nil {
		w.Close()
		return err
	}
	go r.loop(ctx, w)
	return nil
}

// Run watches the paths until ctx is done, reloading once when the
// watches are in place and then after each change.
// It returns an error only when watching cannot start; a failing reload is
// reported through OnLoad, and Run goes on watching.
func (r *Reloader) Run(ctx context.Context) error {
	w, err := r.newWatcher()
	if err != nil {
		return err
	}
	// Load again now that the watches are in place: a change made between
	// the caller's Load and this point would otherwise go unnoticed.
	_ = r.Load()
	r.loop(ctx, w)
	return nil
}

// newWatcher returns a watcher with the watches the paths need in place.
func (r *Reloader) newWatcher() (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := r.watch(w); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// loop reloads after each change w reports, until ctx is done; it closes w.
func (r *Reloader) loop(ctx context.Context, w *fsnotify.Watcher) {
	defer w.Close()
	settle := r.Settle
	if settle <= 0 {
		settle = DefaultSettle
	}
	timer := time.NewTimer(0)
	<-timer.C
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if r.relevant(ev.Name) {
				timer.Reset(settle)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			if r.OnLoad != nil {
				r.OnLoad(nil, err)
			}
		case <-timer.C:
			_ = r.watch(w) // pick up directories created since
			_ = r.Load()   // reported through OnLoad
		}
	}
}

// watch adds every directory the paths need watched: a file's parent
// (editors replace files by renaming over them) and a directory with
// every directory below it.
func (r *Reloader) watch(w *fsnotify.Watcher) error {
	for _, path := range r.Paths {
		if path == Stdin {
			return errors.New("standard input cannot be watched")
		}
		if manifest.IsURL(path) {
			return fmt.Errorf("%s: a URL cannot be watched", path)
		}
		info, err := os.Stat(path)
		if err != nil || !info.IsDir() {
			if err := w.Add(filepath.Dir(path)); err != nil {
				return err
			}
			continue
		}
		err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case !e.IsDir():
				return nil
			case p != path && strings.HasPrefix(e.Name(), "."):
				return filepath.SkipDir
			}
			return w.Add(p)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// configMapData is the symlink a Kubernetes ConfigMap or Secret volume
// points at its current files through; the kubelet updates the volume by
// renaming a new symlink over it.
const configMapData = "..data"

// relevant reports whether a change of name can change what Load reads.
func (r *Reloader) relevant(name string) bool {
	name = filepath.Clean(name)
	for _, path := range r.Paths {
		path = filepath.Clean(path)
		if name == path {
			return true
		}
		// A ConfigMap volume swapped its ..data: in the directory watched,
		// or the one holding a file watched.
		if filepath.Base(name) == configMapData && (filepath.Dir(name) == path || filepath.Dir(name) == filepath.Dir(path)) {
			return true
		}
		rel, err := filepath.Rel(path, name)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if !strings.HasPrefix(filepath.Base(name), ".") && (manifest.IsManifest(name) || filepath.Ext(name) == "") {
			return true
		}
	}
	return false
}
