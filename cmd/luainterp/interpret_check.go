package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/crdschema"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// checkedRule is one line of `--check`, and one entry of its JSON report.
type checkedRule struct {
	Customization string   `json:"customization,omitempty"`
	File          string   `json:"file"`
	Line          int      `json:"line,omitempty"`
	Document      int      `json:"document,omitempty"`
	Item          int      `json:"item,omitempty"`
	Key           string   `json:"key,omitempty"`
	Verdict       string   `json:"verdict"`
	Errors        []string `json:"errors,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
}

// checkReport is what `--check -o json` prints.
type checkReport struct {
	Rules  []checkedRule `json:"rules"`
	Failed int           `json:"failed"`
	Warned int           `json:"warned"`
	// Customizations is how many customizations the files hold; none fails the check.
	Customizations int `json:"customizations"`
}

// runCheck validates every customization in the files and prints one line
// per rule (or, with -o json, one report); it fails with exit status 1
// when any rule is an ERROR (a WARN too, with --strict), or when the files
// hold no customization at all.
func (o *interpretOptions) runCheck(cmd *cobra.Command) error {
	if len(o.customizations) == 0 {
		return errors.New("--check: needs -f with the customizations to check")
	}
	if o.operation != "" {
		return errors.New("--check: checks every operation; drop --operation")
	}
	format := formatText
	if cmd.Flags().Changed("output") {
		var err error
		if format, err = parseFormat(o.output.value, formatText, formatJSON); err != nil {
			return err
		}
	}
	var opts []customization.CheckOption
	if len(o.crds) > 0 {
		schemas, err := crdschema.LoadFiles(o.crds...)
		if err != nil {
			return fmt.Errorf("--crd: %w", err)
		}
		opts = append(opts, customization.WithFields(func(gvk schema.GroupVersionKind) luavm.FieldChecker {
			if !schemas.Has(gvk) {
				return nil
			}
			return func(path []string) (bool, []string, string) { return schemas.HasField(gvk, path) }
		}))
	}
	set, _ := customization.Loader{Stdin: cmd.InOrStdin()}.Load(o.customizations...)
	printWarnings(cmd.ErrOrStderr(), set.Warnings)

	report := checkReport{Rules: []checkedRule{}, Customizations: len(set.Customizations)}
	for _, r := range customization.Check(cmd.Context(), newEngine(cmd.ErrOrStderr()), set, opts...) {
		if r.Verdict == customization.Warn && o.strict {
			r.Verdict, r.Err, r.Warnings = customization.Fail, r.Warnings, nil
		}
		switch r.Verdict {
		case customization.Fail:
			report.Failed++
		case customization.Warn:
			report.Warned++
		}
		report.Rules = append(report.Rules, checkedRule{
			Customization: r.Name, File: r.File, Line: r.Line, Document: r.Document, Key: r.Key,
			Item: r.Item, Verdict: r.Verdict.String(), Errors: lines(r.Err), Warnings: lines(r.Warnings),
		})
	}
	if format == formatJSON {
		if err := formatJSON.print(cmd.OutOrStdout(), report); err != nil {
			return err
		}
	} else {
		printRules(cmd.OutOrStdout(), report.Rules)
	}
	switch {
	case report.Failed > 0:
		fmt.Fprintf(cmd.ErrOrStderr(), "%d of the rules failed\n", report.Failed)
		return &exitError{code: 1}
	case report.Customizations == 0:
		fmt.Fprintf(cmd.ErrOrStderr(), "error: --check: no ResourceInterpreterCustomization in %s\n", strings.Join(o.customizations, ", "))
		return &exitError{code: 1}
	}
	return nil
}

// printRules writes a line per rule: verdict, customization, key and what
// is wrong.
func printRules(w io.Writer, rules []checkedRule) {
	subjectWidth, keyWidth := 0, 0
	for _, r := range rules {
		subjectWidth = max(subjectWidth, len(r.subject()))
		keyWidth = max(keyWidth, len(orDash(r.Key)))
	}
	for _, r := range rules {
		line := fmt.Sprintf("%-5s  %-*s  %-*s", r.Verdict, subjectWidth, r.subject(), keyWidth, orDash(r.Key))
		if problems := append(r.Errors, r.Warnings...); len(problems) > 0 {
			line += "  " + strings.Join(problems, "; ")
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// subject names what a rule is about: the customization, or the file
// and document when it has no name.
func (r checkedRule) subject() string {
	if r.Customization != "" {
		return r.Customization
	}
	return customization.Position{File: r.File, Line: r.Line, Document: r.Document, Item: r.Item}.String()
}

// lines returns the lines of an error's message; nil for no error (a nil
// or empty ErrorList included).
func lines(err error) []string {
	if l, ok := err.(customization.ErrorList); err == nil || ok && len(l) == 0 {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
