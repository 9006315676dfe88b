package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
)

// showDoc writes what each rule's function receives and returns (the
// operation's interpreter.LuaDoc): every rule, or those of ops.
func showDoc(w io.Writer, ops ...interpreter.Operation) error {
	if len(ops) == 0 {
		ops = interpreter.Operations()
	}
	var b strings.Builder
	for i, op := range ops {
		d := op.LuaDoc()
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (customization key %s)\n", op, op.CustomizationKey())
		fmt.Fprintf(&b, "  %s\n", d.Purpose)
		fmt.Fprintf(&b, "  function %s\n", op.LuaSignature())
		b.WriteString("  receives:\n")
		for _, line := range d.Receives {
			fmt.Fprintf(&b, "    %s\n", line)
		}
		b.WriteString("  returns:\n")
		for _, line := range d.Returns {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	b.WriteString("\nScripts run in fresh globals each call and may require(\"kube\") and require(\"json\");\n" +
		"objects are plain tables with their JSON field names. `luainterp init` writes a skeleton of every rule.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// operationList names every operation, "A, B or C", for the help.
func operationList() string {
	var names []string
	for _, op := range interpreter.Operations() {
		names = append(names, op.String())
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
