package customization

import (
	"fmt"

	"github.com/luainterp/luainterp/interpreter"
)

// Overlaps returns an error for each operation c defines that another
// customization of c's target among others defines too (c's own older
// version, of the same name, aside), each naming that one. Admission
// refuses such a customization with these messages, and
// `interpret --check` fails it with them: a kind's operation is defined
// by one customization only, as Karmada's own webhook demands.
func Overlaps(c *Customization, others []*Customization) ErrorList {
	var errs ErrorList
	for _, op := range c.Operations() {
		for _, other := range others {
			if other.Name == c.Name || other.Target != c.Target {
				continue
			}
			if _, ok := other.Script(op); ok {
				errs = append(errs, &Error{Position: c.Position, Key: op.CustomizationKey(),
					Field: "spec.customizations." + op.CustomizationKey(),
					Err: fmt.Errorf("already defined for %s by customization %q; a kind's operation is defined by one customization only",
						interpreter.GVKString(c.Target), other.Name)})
			}
		}
	}
	return errs
}
