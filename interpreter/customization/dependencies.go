package customization

import (
	"cmp"
	"slices"

	"github.com/luainterp/luainterp/interpreter"
)

// MergeDependencies returns refs as Karmada returns the dependencies its
// customizations' scripts found: each reference once, sorted by
// apiVersion, kind, namespace and name (references equal in all four keep
// their order). A reference by label selector is never the same as
// another, since Karmada's set holds the selector by pointer: only
// references by name are de-duplicated.
func MergeDependencies(refs []interpreter.DependentObjectReference) []interpreter.DependentObjectReference {
	if refs == nil {
		return nil
	}
	type named struct{ apiVersion, kind, namespace, name string }
	seen := map[named]bool{}
	out := make([]interpreter.DependentObjectReference, 0, len(refs))
	for _, r := range refs {
		if r.LabelSelector == nil {
			k := named{r.APIVersion, r.Kind, r.Namespace, r.Name}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b interpreter.DependentObjectReference) int {
		return cmp.Or(cmp.Compare(a.APIVersion, b.APIVersion), cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}
