package luavm

import (
	"fmt"
	"strings"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
)

// FieldChecker says whether the objects a hook is given can hold a field
// path (keys from the object's root; "[]" for any item of a list), and,
// when they cannot, the path to the first key they lack and the closest
// key they have there ("" when none is close). A CRD's schema answers it.
type FieldChecker func(path []string) (ok bool, missing []string, closest string)

// objectParams are the parameters of each hook function that hold an
// object of the customization's kind: those whose fields a script reads
// and writes by name.
var objectParams = map[string][]int{
	"GetReplicas": {0}, "ReviseReplica": {0}, "GetComponents": {0}, "Retain": {0, 1},
	"AggregateStatus": {0}, "ReflectStatus": {0}, "InterpretHealth": {0}, "GetDependencies": {0},
}

// fieldFindings are the findings of the field paths a chunk's hook
// functions use on their objects that check says the kind lacks, one per
// line and path.
func fieldFindings(uses []luasyntax.FieldUse, check FieldChecker) []Finding {
	var findings []Finding
	seen := map[string]bool{}
	for _, u := range uses {
		exists, missing, closest := check(u.Path)
		if exists {
			continue
		}
		where := u.Param + "." + strings.ReplaceAll(strings.Join(missing, "."), ".[]", "[]")
		key := fmt.Sprintf("%d %s", u.Line, where)
		if seen[key] {
			continue
		}
		seen[key] = true
		msg := fmt.Sprintf("%s: the CRD's schema has no such field", where)
		if closest != "" {
			msg += fmt.Sprintf(" (closest: %q)", closest)
		}
		findings = append(findings, Finding{Line: u.Line, Message: msg})
	}
	return findings
}
