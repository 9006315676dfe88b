package argocd

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The names of Argo CD's layout.
const (
	TreeDir         = "resource_customizations"
	HealthFile      = "health.lua"
	HealthTestFile  = "health_test.yaml"
	ActionsDir      = "actions"
	DiscoveryFile   = "discovery.lua"
	ActionFile      = "action.lua"
	ActionTestFile  = "action_test.yaml"
	wildcardInPaths = "_"
)

// Tree is a resource_customizations tree: a folder per kind,
// <group>/<Kind> (<Kind> for the core group), holding health.lua,
// health_test.yaml and actions/ (discovery.lua, <name>/action.lua,
// action_test.yaml). A folder name holding "_" is a wildcard: "_" stands
// for "*" in a glob over the key.
type Tree struct {
	// Dir is the folder the keys are relative to.
	Dir   string
	kinds map[string]*Folder
	// wildcards are the keys of the wildcard folders, sorted.
	wildcards []string
}

// Folder is one kind's folder of a Tree.
type Folder struct {
	Key     string // relative to the tree, "_" kept
	Dir     string
	Health  *Script
	Actions *Actions
	// Tests are the paths of health_test.yaml and actions/action_test.yaml, when present.
	Tests []string
}

// LoadTree reads the tree in dir, or in dir/resource_customizations when
// dir holds that folder. A script that cannot be read is an error; one
// that does not compile is not (its calls fail, naming it).
func LoadTree(dir string) (*Tree, error) {
	if info, err := os.Stat(filepath.Join(dir, TreeDir)); err == nil && info.IsDir() {
		dir = filepath.Join(dir, TreeDir)
	}
	t := &Tree{Dir: dir, kinds: map[string]*Folder{}}
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		return t.add(p)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the Argo CD tree %s: %w", dir, err)
	}
	if len(t.kinds) == 0 {
		return nil, fmt.Errorf("reading the Argo CD tree %s: no %s or %s/ in any folder", dir, HealthFile, ActionsDir)
	}
	for key := range t.kinds {
		if strings.Contains(key, wildcardInPaths) {
			t.wildcards = append(t.wildcards, key)
		}
	}
	slices.Sort(t.wildcards)
	return t, nil
}

// add records the file at p, relative to the tree, when it is part of the layout.
func (t *Tree) add(p string) error {
	dir, file := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	parent, inDir := path.Split(dir)
	parent = strings.TrimSuffix(parent, "/")
	switch {
	case file == HealthFile:
		s, err := t.read(p, RoleHealth)
		t.folder(dir).Health = s
		return err
	case file == HealthTestFile:
		f := t.folder(dir)
		f.Tests = append(f.Tests, filepath.Join(t.Dir, p))
	case inDir == ActionsDir && parent != "" && file == DiscoveryFile:
		s, err := t.read(p, RoleDiscovery)
		t.actions(parent).Discovery = s
		return err
	case inDir == ActionsDir && parent != "" && file == ActionTestFile:
		f := t.folder(parent)
		f.Tests = append(f.Tests, filepath.Join(t.Dir, p))
	case file == ActionFile && path.Base(path.Dir(dir)) == ActionsDir:
		kind := path.Dir(path.Dir(dir))
		if kind == "." {
			return nil
		}
		s, err := t.read(p, RoleAction)
		t.actions(kind).ByName[inDir] = s
		return err
	}
	return nil
}

func (t *Tree) read(p string, role Role) (*Script, error) {
	name := filepath.Join(t.Dir, p)
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	// Argo CD runs its built-in health scripts with the standard libraries open.
	return &Script{Name: name, Source: string(data), Role: role, OpenLibs: true}, nil
}

func (t *Tree) folder(key string) *Folder {
	f, ok := t.kinds[key]
	if !ok {
		f = &Folder{Key: key, Dir: filepath.Join(t.Dir, key)}
		t.kinds[key] = f
	}
	return f
}

func (t *Tree) actions(key string) *Actions {
	f := t.folder(key)
	if f.Actions == nil {
		f.Actions = &Actions{ByName: map[string]*Script{}}
	}
	return f.Actions
}

// Folders returns the tree's kind folders in key order.
func (t *Tree) Folders() []*Folder {
	keys := make([]string, 0, len(t.kinds))
	for k := range t.kinds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*Folder, len(keys))
	for i, k := range keys {
		out[i] = t.kinds[k]
	}
	return out
}

// health returns the health script for key: the exact folder's, else the
// first wildcard folder's (in sorted order) whose glob matches.
func (t *Tree) health(key string) *Script {
	if t == nil {
		return nil
	}
	if f, ok := t.kinds[key]; ok && f.Health != nil {
		return f.Health
	}
	for _, w := range t.wildcards {
		if f := t.kinds[w]; f.Health != nil && matches(strings.ReplaceAll(w, wildcardInPaths, "*"), key) {
			return f.Health
		}
	}
	return nil
}

// actionsOf returns the actions of key's exact folder (actions have no
// wildcard lookup), or nil.
func (t *Tree) actionsOf(key string) *Actions {
	if t == nil {
		return nil
	}
	if f, ok := t.kinds[key]; ok {
		return f.Actions
	}
	return nil
}
