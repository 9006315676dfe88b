package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/interpreter/customization"
)

// runCheck validates every customization in the files and prints one line
// per rule; it fails with exit status 1 when any rule is an ERROR.
func (o *interpretOptions) runCheck(cmd *cobra.Command) error {
	if len(o.customizations) == 0 {
		return errors.New("--check: needs -f with the customizations to check")
	}
	if o.operation != "" {
		return errors.New("--check: checks every operation; drop --operation")
	}
	set, _ := customization.Loader{Stdin: cmd.InOrStdin()}.Load(o.customizations...)
	printWarnings(cmd.ErrOrStderr(), set.Warnings)

	rules := customization.Check(newEngine(cmd.ErrOrStderr()), set)
	subjectWidth, keyWidth := 0, 0
	for _, r := range rules {
		subjectWidth = max(subjectWidth, len(ruleSubject(r.Position)))
		keyWidth = max(keyWidth, len(orDash(r.Key)))
	}
	failed := 0
	for _, r := range rules {
		line := fmt.Sprintf("%-5s  %-*s  %-*s", r.Verdict, subjectWidth, ruleSubject(r.Position), keyWidth, orDash(r.Key))
		if r.Err != nil {
			failed++
			line += "  " + strings.ReplaceAll(r.Err.Error(), "\n", "; ")
		}
		fmt.Fprintln(cmd.OutOrStdout(), strings.TrimRight(line, " "))
	}
	if failed > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d of the rules failed\n", failed)
		return &exitError{code: 1}
	}
	return nil
}

// ruleSubject names what a rule is about: the customization, or the file
// and document when it has no name.
func ruleSubject(p customization.Position) string {
	if p.Name != "" {
		return p.Name
	}
	return p.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
