package customization

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Conflict is an operation of one kind that two customizations define.
// The one first in name order is used (Karmada merges a kind's
// customizations in name order, the first script of an operation
// winning); the other's script for it is left out. Every process that
// loads the same customizations makes the same choice.
type Conflict struct {
	Target    schema.GroupVersionKind
	Operation interpreter.Operation
	Used      *Customization // answers the operation
	Unused    *Customization // its script for the operation is left out
}

// String says which customization is used and why, naming the unused one's key.
func (c Conflict) String() string {
	return fmt.Sprintf("%s for %s is also defined by %q; %q is used (customizations apply in name order, the first wins)",
		c.Operation.CustomizationKey(), interpreter.GVKString(c.Target), c.Used.Name, c.Used.Name)
}

// conflicts returns the conflicts of customizations, which are in name
// order. InterpretDependency never conflicts: every customization's
// dependencies are merged.
func conflicts(customizations []*Customization) []Conflict {
	var out []Conflict
	used := map[hookKey]*Customization{}
	for _, c := range customizations {
		if c.Target.Kind == "" {
			continue
		}
		for _, op := range c.Operations() {
			if op == interpreter.InterpretDependency {
				continue
			}
			k := hookKey{c.Target, op}
			first, taken := used[k]
			if !taken {
				used[k] = c
				continue
			}
			out = append(out, Conflict{Target: c.Target, Operation: op, Used: first, Unused: c})
		}
	}
	return out
}
