package customization

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
)

// EmptiedError refuses a new version of a file or API object that would
// take hooks away the way a file caught empty or cut short does, while the
// file or object is still there: a version that defines no operation at
// all where the last good one defined some (0 bytes, only a comment, a
// document cut before its kind or after a key left null), or one that
// keeps a customization by name but leaves it no operation (a document cut
// after "replicaResource:"). The last good version goes on serving;
// deleting the file or object is how its hooks are removed.
//
// Defining fewer customizations or fewer operations than before is a
// normal edit, and is not refused.
type EmptiedError struct {
	Source  string    // the file, or the object as kube/source names it
	Whole   bool      // the version defines no operation at all
	Dropped []Dropped // what the last good version defined that the new one leaves with no operation
}

// Dropped is a customization of a last good version and the operations it defined.
type Dropped struct {
	Name       string
	Operations []interpreter.Operation
}

func (d Dropped) String() string {
	keys := make([]string, len(d.Operations))
	for i, op := range d.Operations {
		keys[i] = op.CustomizationKey()
	}
	return strconv.Quote(d.Name) + " (" + strings.Join(keys, ", ") + ")"
}

func (e *EmptiedError) Error() string {
	dropped := make([]string, len(e.Dropped))
	for i, d := range e.Dropped {
		dropped[i] = d.String()
	}
	if e.Whole {
		return fmt.Sprintf("%s: defines no operation, where its last good version defines %s: refused as empty or cut short",
			e.Source, strings.Join(dropped, ", "))
	}
	return fmt.Sprintf("%s: leaves no operation to %s: refused as cut short (delete a customization's document to remove it)",
		e.Source, strings.Join(dropped, ", "))
}

// Emptied returns an *EmptiedError when next, a new version of source whose
// last good version is last, would take hooks away as EmptiedError says;
// nil otherwise, and always when last is nil or defines no operation.
func Emptied(source string, last, next *Set) error {
	if last == nil {
		return nil
	}
	before := map[string][]interpreter.Operation{}
	var all []Dropped
	for _, c := range last.Customizations {
		if ops := c.Operations(); len(ops) > 0 {
			before[c.Name] = ops
			all = append(all, Dropped{Name: c.Name, Operations: ops})
		}
	}
	if len(all) == 0 {
		return nil
	}
	if !definesAny(next) {
		return &EmptiedError{Source: source, Whole: true, Dropped: all}
	}
	var dropped []Dropped
	for _, c := range next.Customizations {
		if ops, ok := before[c.Name]; ok && len(c.Operations()) == 0 {
			dropped = append(dropped, Dropped{Name: c.Name, Operations: ops})
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	return &EmptiedError{Source: source, Dropped: dropped}
}

// definesAny reports whether a customization of set defines an operation.
func definesAny(set *Set) bool {
	for _, c := range set.Customizations {
		if len(c.Operations()) > 0 {
			return true
		}
	}
	return false
}
