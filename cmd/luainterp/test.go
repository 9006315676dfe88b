package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/report"
)

// bundledSuites is where `luainterp test` looks when given no path.
const bundledSuites = "scripts"

// testOptions are the flags of `luainterp test`.
type testOptions struct {
	run      string
	junit    string
	output   string
	coverage bool
	listing  bool
	timeout  time.Duration
}

func newTestCommand() *cobra.Command {
	o := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test [PATH ...]",
		Short: "Run customization test suites offline, in Karmada's format",
		Long: `Run the test suites of ResourceInterpreterCustomizations, written in the
format Karmada uses for its bundled customizations.

A suite is a folder holding customizations.yaml (one or more
ResourceInterpreterCustomizations) and testdata/*.yaml, each file one or more
test cases ("---" between them): name, description, operation, desiredObj,
observedObj, statusItems, inputReplicas and output, a map from result name
(replica, requires, revised, components, retained, aggregatedStatus, status,
healthy, dependencies) to the expected value; expectError and errorContains
make a case expect the operation to fail.

Each PATH is a suite folder or a tree to search for suites; without PATH, the
suites under ./scripts. Each suite's scripts are compile-checked, then every
case runs against the suite's customizations alone. A suite in a tree laid
out as <group>/<version>/<Kind> (core for the core group) must target that
kind. Quantities compare by value (1 = 1000m), dependencies and components in
any order, and "{{EXCLUDE}}" in an expected output leaves that path out.

Output is like go test -v: a line per case, and for a failure where the case
is, why it failed, a YAML diff of the differing paths and what the scripts
printed. The exit status is 1 when a case fails or a suite cannot be loaded.`,
		Example: `  luainterp test scripts/apps.kruise.io/v1alpha1/CloneSet
  luainterp test --run 'CloneSet/AggregateStatus' --junit report.xml scripts
  luainterp test --coverage --coverage-listing my-crd/
  luainterp test -o json --timeout 100ms scripts > report.json`,
		RunE: func(cmd *cobra.Command, paths []string) error { return o.runTests(cmd, paths) },
	}
	f := cmd.Flags()
	f.StringVar(&o.run, "run", "", "run only the cases whose suite/Operation/name matches this regular expression")
	f.StringVar(&o.junit, "junit", "", "also write a JUnit XML report to this file")
	f.StringVarP(&o.output, "output", "o", "text", "output format: text or json")
	f.DurationVar(&o.timeout, "timeout", luavm.DefaultTimeout, "how long one script call may run before its case fails")
	f.BoolVar(&o.coverage, "coverage", false, "report which lines of each Lua script the cases ran")
	f.BoolVar(&o.listing, "coverage-listing", false, "with the coverage summary, list each script with its hit counts (implies --coverage)")
	return cmd
}

func (o *testOptions) runTests(cmd *cobra.Command, paths []string) error {
	var selected *regexp.Regexp
	if o.run != "" {
		var err error
		if selected, err = regexp.Compile(o.run); err != nil {
			return fmt.Errorf("--run: %w", err)
		}
	}
	if o.output != "text" && o.output != "json" {
		return fmt.Errorf("--output: unknown format %q: want text or json", o.output)
	}
	if len(paths) == 0 {
		if _, err := os.Stat(bundledSuites); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("no PATH given and no bundled suites here: %s/ does not exist", bundledSuites)
		}
		paths = []string{bundledSuites}
	}

	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	text := report.NewText(io.Discard)
	if o.output == "text" {
		text = report.NewText(stdout)
	}
	var rep report.Report
	notLoaded := func(name, dir string, err error) {
		rep.Suites = append(rep.Suites, &report.Suite{Name: name, Dir: dir, Err: err})
		text.NotLoaded(name, err)
	}
	for _, path := range paths {
		found, err := testsuite.Find(path)
		if err != nil {
			notLoaded(path, path, err)
			continue
		}
		for _, f := range found {
			var cov *luavm.Coverage
			if o.coverage || o.listing {
				cov = luavm.NewCoverage()
			}
			suite, err := testsuite.Load(f, newSuiteLayer(o.timeout, cov))
			if suite.Customizations != nil {
				printWarnings(stderr, suite.Customizations.Warnings)
			}
			if err != nil {
				notLoaded(f.Name, f.Dir, err)
				continue
			}
			results := suite.Run(cmd.Context(), selected, text.Result)
			rep.Suites = append(rep.Suites, &report.Suite{Name: f.Name, Dir: f.Dir, Results: results})
			if cov != nil {
				rep.Coverage = append(rep.Coverage, report.Coverage(f.Name, suite.Customizations, cov)...)
			}
		}
	}

	if o.output == "text" && (o.coverage || o.listing) {
		report.WriteCoverage(stdout, rep.Coverage, o.listing)
	}
	counts := rep.Counts()
	text.Summary(counts)
	if o.output == "json" {
		if err := report.WriteJSON(stdout, &rep); err != nil {
			return err
		}
	}
	if o.junit != "" {
		if err := writeJUnit(o.junit, &rep); err != nil {
			return err
		}
	}
	if !counts.OK() {
		return &exitError{code: 1}
	}
	return nil
}

// newSuiteLayer builds a suite's interpreter: its customizations alone, on
// an engine of its own (calls limited to timeout, coverage recorded into
// cov when not nil), every script compile-checked.
func newSuiteLayer(timeout time.Duration, cov *luavm.Coverage) testsuite.LayerFunc {
	return func(set *customization.Set) (interpreter.Interpreter, error) {
		opts := []luavm.Option{luavm.WithTimeout(timeout)}
		if cov != nil {
			opts = append(opts, luavm.WithCoverage(cov))
		}
		layer, err := customization.NewLayer(luavm.New(opts...), set)
		if err != nil {
			return nil, err
		}
		return layer, nil
	}
}

func writeJUnit(path string, rep *report.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--junit: %w", err)
	}
	if err := report.WriteJUnit(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("--junit: %w", err)
	}
	return f.Close()
}
