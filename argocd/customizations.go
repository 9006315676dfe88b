package argocd

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Customizations are the scripts Argo CD would run for a kind: a user's
// argocd-cm overrides over a resource_customizations tree. Either may be
// absent.
type Customizations struct {
	Tree      *Tree
	overrides map[string]*Override // by key, exact keys and globs
	globs     []string             // the glob keys, sorted
}

// NewCustomizations returns the overrides over tree (nil for none). Of
// two overrides with one key, the later wins.
func NewCustomizations(tree *Tree, overrides ...*Override) *Customizations {
	c := &Customizations{Tree: tree, overrides: map[string]*Override{}}
	for _, o := range overrides {
		c.overrides[o.Key] = o
		if isGlob(o.Key) && !slices.Contains(c.globs, o.Key) {
			c.globs = append(c.globs, o.Key)
		}
	}
	slices.Sort(c.globs)
	return c
}

// override returns the override of key that has has: the one with the
// exact key, else the first glob (in sorted order; Argo CD keeps them in
// a Go map and so picks any) that matches.
func (c *Customizations) override(key string, has func(*Override) bool) *Override {
	if o, ok := c.overrides[key]; ok && has(o) {
		return o
	}
	for _, g := range c.globs {
		if o := c.overrides[g]; has(o) && matches(g, key) {
			return o
		}
	}
	return nil
}

func hasHealth(o *Override) bool  { return o.Health != nil }
func hasActions(o *Override) bool { return o.Actions != nil }

// HealthScript returns the health script of the kind, or nil: an
// override's with the exact key, then the first override whose glob
// matches, then the tree's exact folder, then its wildcard folders in
// sorted order.
func (c *Customizations) HealthScript(gk schema.GroupKind) *Script {
	key := Key(gk)
	if o := c.override(key, hasHealth); o != nil {
		return o.Health
	}
	return c.Tree.health(key)
}

// ActionSets returns the actions of the kind in precedence order: an
// override's, followed by the tree's when the override merges them;
// without an override, the tree's.
func (c *Customizations) ActionSets(gk schema.GroupKind) []*Actions {
	key := Key(gk)
	builtin := c.Tree.actionsOf(key)
	var sets []*Actions
	if o := c.override(key, hasActions); o != nil {
		sets = append(sets, o.Actions)
		if !o.Actions.MergeBuiltin {
			return sets
		}
	}
	if builtin != nil {
		sets = append(sets, builtin)
	}
	return sets
}

// ActionScript returns the script of the named action of the kind, or nil.
func (c *Customizations) ActionScript(gk schema.GroupKind, name string) *Script {
	for _, a := range c.ActionSets(gk) {
		if s := a.action(name); s != nil {
			return s
		}
	}
	return nil
}
