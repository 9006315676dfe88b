package customization

import "fmt"

// Merge returns one Set holding the customizations of every set, in name
// order as Load orders them, so that for each kind and operation the
// first customization in name order with a script answers, wherever it
// was read. Where two sets hold a customization of the same name, the
// earlier set's is kept and a warning names the one left out; a caller
// that merges files and API objects passes the files first, so a file
// wins over an object of its name. The sets' warnings and errors are kept.
func Merge(sets ...*Set) *Set {
	merged := &Set{}
	seen := map[string]*Customization{}
	for _, s := range sets {
		if s == nil {
			continue
		}
		merged.Warnings = append(merged.Warnings, s.Warnings...)
		merged.errs = append(merged.errs, s.errs...)
		for _, c := range s.Customizations {
			if first, dup := seen[c.Name]; dup && c.Name != "" {
				merged.Warnings = append(merged.Warnings, Warning{Position: c.Position, Message: fmt.Sprintf(
					"left out: a customization of this name is already loaded from %s", first.Position)})
				continue
			}
			seen[c.Name] = c
			merged.Customizations = append(merged.Customizations, c)
		}
	}
	merged.finish()
	return merged
}
