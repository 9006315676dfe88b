package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/internal/crdschema"
	"github.com/luainterp/luainterp/internal/layout"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/report"
)

// bundledSuites returns the suites `luainterp test` runs when given no
// path: those of the scripts/ folder of a luainterp working copy when the
// current folder is one, else those embedded in the binary.
func bundledSuites() ([]testsuite.Found, error) {
	if info, err := os.Stat(scripts.Root); err == nil && info.IsDir() {
		return testsuite.Find(scripts.Root)
	}
	return testsuite.FindFS(scripts.FS, scripts.Root)
}

// testOptions are the flags of `luainterp test`.
type testOptions struct {
	run      string
	junit    string
	output   *outputFlag
	coverage bool
	listing  bool
	// coverageOut is the file to write coverage to, lcov or (*.xml)
	// Cobertura; coverageMin the share of lines under which the run fails.
	coverageOut string
	coverageMin float64
	strict      bool
	crds        []string
	schemas     *crdschema.Schemas
	timeout     time.Duration
	outputLimit serveconfig.Bytes
	format      string // testFormatAuto, testFormatKarmada or testFormatArgoCD
	argocdCM    string
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
make a case expect the operation to fail. Fields are read as Karmada reads
them: an unknown field is ignored, with a warning naming it (--strict fails
the case instead), and a file or document that cannot be read fails as a
case of its own.

Each PATH is a suite folder or a tree to search for suites; without PATH, the
bundled suites: those of ./scripts when run in a luainterp working copy, else
those embedded in the binary. Each suite's scripts are compile-checked, then every
case runs against the suite's customizations alone. A suite in a tree laid
out as <group>/<version>/<Kind> (core for the core group) must target that
kind, and is named <group>/<version>/<Kind> whichever PATH led to it, so that
one --run selects the same cases from any folder. A case --strict refuses
keeps its name and fails; a --run that selects no case is an error.
Quantities compare by value (1 = 1000m), dependencies and components in
any order, and "{{EXCLUDE}}" in an expected output leaves that path out.

Output is like go test -v: a line per case, and for a failure where the case
is, why it failed, a YAML diff of the differing paths and what the scripts
printed. The exit status is 1 when a case fails or a suite cannot be loaded.

--format argocd runs Argo CD's test files instead: each PATH is a
resource_customizations tree, each health_test.yaml and action_test.yaml in it
a suite named for its kind folder, judged as Argo CD's own tests judge them,
against the tree's scripts and the argocd-cm of --argocd-cm (or the tree's
argocd-cm.yaml). With --format auto (the default), a PATH holding
resource_customizations/, health.lua or Argo CD test files and no
customizations.yaml is run so. See docs/argocd.md.`,
		Example: `  luainterp test scripts/apps.kruise.io/v1alpha1/CloneSet
  luainterp test --run 'CloneSet/AggregateStatus' --junit report.xml scripts
  luainterp test --coverage --coverage-listing my-crd/
  luainterp test --crd config/crd/bases/example.io_widgets.yaml my-crd/
  luainterp test --coverage-out lcov.info --coverage-min 90 my-crd/
  luainterp test -o json --timeout 100ms scripts > report.json
  luainterp test --format argocd --argocd-cm argocd-cm.yaml resource_customizations/`,
		RunE: func(cmd *cobra.Command, paths []string) error { return o.runTests(cmd, paths) },
	}
	f := cmd.Flags()
	f.StringVar(&o.run, "run", "", "run only the cases whose suite/Operation/name matches this regular expression (anchored with ^, suites it cannot match are not loaded); selecting no case is an error")
	f.StringVar(&o.junit, "junit", "", "also write a JUnit XML report to this file")
	o.output = addOutputFlag(cmd, formatText, formatJSON)
	f.DurationVar(&o.timeout, "timeout", luavm.DefaultTimeout, "how long one script call may run before its case fails")
	addOutputLimitFlag(f, &o.outputLimit)
	f.BoolVar(&o.coverage, "coverage", false, "report which lines of each Lua script the cases ran")
	f.StringArrayVar(&o.crds, "crd", nil, "a CustomResourceDefinition file (or folder of them): every case's input objects, status items and results of its kinds must validate against it as the API server would (repeatable)")
	f.BoolVar(&o.strict, "strict", false, "fail a test case holding a field Karmada would ignore (unknown, or differing in case), instead of warning")
	f.BoolVar(&o.listing, "coverage-listing", false, "with the coverage summary, list each script with its hit counts (implies --coverage)")
	f.StringVar(&o.coverageOut, "coverage-out", "", "write the coverage to this file for CI: lcov, or Cobertura XML for a name ending in .xml")
	f.Float64Var(&o.coverageMin, "coverage-min", 0, "fail when less than this percentage of the scripts' lines ran")
	f.StringVar(&o.format, "format", testFormatAuto, "the test files' format: karmada, argocd (health_test.yaml, action_test.yaml) or auto (argocd for a tree in Argo CD's layout)")
	f.StringVar(&o.argocdCM, "argocd-cm", "", "with --format argocd, an argocd-cm ConfigMap file whose scripts override the tree's")
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
	format, err := o.output.format()
	if err != nil {
		return err
	}
	if err := checkTestFormat(o.format); err != nil {
		return err
	}
	if len(o.crds) > 0 {
		if o.schemas, err = crdschema.LoadFiles(o.crds...); err != nil {
			return fmt.Errorf("--crd: %w", err)
		}
	}
	if o.coverageMin < 0 || o.coverageMin > 100 {
		return fmt.Errorf("--coverage-min: %g is not a percentage from 0 to 100", o.coverageMin)
	}
	stdout := cmd.OutOrStdout()
	r := &testRun{testOptions: o, selected: selected, stderr: cmd.ErrOrStderr(), text: report.NewText(io.Discard)}
	if format == formatText {
		r.text = report.NewText(stdout)
	}

	if len(paths) == 0 {
		r.suites(cmd.Context(), scripts.Root, bundledSuites)
	}
	for _, path := range paths {
		if r.isArgoCD(path) {
			r.argocdTests(cmd.Context(), path)
			continue
		}
		r.suites(cmd.Context(), path, func() ([]testsuite.Found, error) { return testsuite.Find(path) })
	}

	if format == formatText && (o.coverage || o.listing) {
		report.WriteCoverage(stdout, r.report.Coverage, o.listing)
	}
	counts := r.report.Counts()
	r.text.Summary(counts)
	if o.coverageOut != "" {
		write := func(w io.Writer) error { return report.WriteLCOV(w, r.report.Coverage) }
		if strings.EqualFold(filepath.Ext(o.coverageOut), ".xml") {
			write = func(w io.Writer) error { return report.WriteCobertura(w, r.report.Coverage, time.Now()) }
		}
		if err := writeReport("--coverage-out", o.coverageOut, write); err != nil {
			return err
		}
	}
	belowMin := false
	if cmd.Flags().Changed("coverage-min") {
		if pct := report.TotalPercent(r.report.Coverage); pct < o.coverageMin {
			fmt.Fprintf(r.stderr, "coverage: %.2f%% of the scripts' lines ran, under --coverage-min %g%%\n", pct, o.coverageMin)
			belowMin = true
		}
	}
	if format == formatJSON {
		if err := report.WriteJSON(stdout, &r.report); err != nil {
			return err
		}
	}
	if o.junit != "" {
		if err := writeReport("--junit", o.junit, func(w io.Writer) error { return report.WriteJUnit(w, &r.report) }); err != nil {
			return err
		}
	}
	if err := r.selectedNone(counts); err != nil {
		return err
	}
	if !counts.OK() || belowMin {
		return &exitError{code: 1}
	}
	return nil
}

// selectedNone is the error of a --run that selected no case of the
// suites that loaded: a CI job with a stale pattern must not pass on
// zero cases.
func (r *testRun) selectedNone(counts report.Counts) error {
	if r.selected == nil || counts.Passed+counts.Failed > 0 || counts.NotLoaded > 0 {
		return nil
	}
	example := ""
	for _, s := range r.report.Suites {
		if len(s.Results) > 0 {
			example = fmt.Sprintf(", such as %q", s.Results[0].Name)
			break
		}
	}
	return fmt.Errorf("--run %q selects none of the %d cases found (their names are suite/Operation/name%s)",
		r.run, counts.Skipped, example)
}

// testRun is one run of `luainterp test`: its options and what it found.
type testRun struct {
	*testOptions
	selected *regexp.Regexp
	stderr   io.Writer
	text     *report.Text
	report   report.Report
}

// suites runs the suites find returns; path names them when there are none.
func (r *testRun) suites(ctx context.Context, path string, find func() ([]testsuite.Found, error)) {
	found, err := find()
	if err != nil {
		r.notLoaded(&report.Suite{Name: path, Dir: path, Err: err})
	}
	for _, f := range found {
		if r.mayMatch(f.Name) {
			r.suite(ctx, f)
		}
	}
}

// mayMatch reports whether --run can select cases of the named suite: an
// anchored --run ("^ray.io/") selects only names that start with its
// literal prefix, so the suites that cannot are not even loaded.
func (r *testRun) mayMatch(suite string) bool {
	if r.selected == nil || !strings.HasPrefix(r.run, "^") {
		return true
	}
	prefix, _ := r.selected.LiteralPrefix()
	suite += "/"
	return strings.HasPrefix(suite, prefix) || strings.HasPrefix(prefix, suite)
}

// suite loads one suite on an engine of its own and runs its cases.
func (r *testRun) suite(ctx context.Context, f testsuite.Found) {
	var cov *luavm.Coverage
	if r.recordsCoverage() {
		cov = luavm.NewCoverage()
	}
	var opts []testsuite.Option
	if r.strict {
		opts = append(opts, testsuite.Strict())
	}
	suite, err := testsuite.Load(f, newSuiteLayer(cov, luavm.WithTimeout(r.timeout), luavm.WithOutputLimit(r.outputLimit.N)), opts...)
	if suite.Customizations != nil {
		printWarnings(r.stderr, suite.Customizations.Warnings)
	}
	for _, c := range suite.Cases {
		if c.Err != nil {
			continue // with --strict, its warnings are its failures
		}
		for _, w := range c.Warnings {
			fmt.Fprintf(r.stderr, "warning: %v (ignored)\n", w)
		}
	}
	if err != nil {
		r.notLoaded(&report.Suite{Name: f.Name, Dir: f.Dir, Err: err})
		return
	}
	schemas, err := r.suiteSchemas(f)
	if err != nil {
		r.notLoaded(&report.Suite{Name: f.Name, Dir: f.Dir, Err: err})
		return
	}
	suite.Schemas = schemas
	results := suite.Run(ctx, r.selected, r.text.Result)
	r.report.Suites = append(r.report.Suites, &report.Suite{Name: f.Name, Dir: f.Dir, Results: results})
	if cov != nil {
		r.report.Coverage = append(r.report.Coverage, report.Coverage(f.Name, suite.Customizations, cov, results)...)
	}
}

// suiteSchemas returns what the suite's cases validate against: the CRDs
// of --crd and, for the versions they do not serve, those of the suite's
// crds/ folder (where init --from-crd records its CRD).
func (r *testRun) suiteSchemas(f testsuite.Found) (*crdschema.Schemas, error) {
	fsys, dir := f.Files()
	crds := path.Join(dir, layout.CRDsDir)
	if info, err := fs.Stat(fsys, crds); err != nil || !info.IsDir() {
		return r.schemas, nil
	}
	own, err := crdschema.Load(fsys, crds)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(f.Dir, layout.CRDsDir), err)
	}
	return r.schemas.Beside(own), nil
}

func (r *testRun) notLoaded(s *report.Suite) {
	r.report.Suites = append(r.report.Suites, s)
	r.text.NotLoaded(s.Name, s.Err)
}

// newSuiteLayer builds a suite's interpreter: its customizations alone, on
// an engine of its own (of opts, coverage recorded into cov when not
// nil), every script compile-checked.
func newSuiteLayer(cov *luavm.Coverage, opts ...luavm.Option) testsuite.LayerFunc {
	return func(set *customization.Set) (interpreter.Interpreter, error) {
		opts := opts[:len(opts):len(opts)]
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

// recordsCoverage reports whether the run records coverage: for the
// summary, the listing, the file or the threshold.
func (o *testOptions) recordsCoverage() bool {
	return o.coverage || o.listing || o.coverageOut != "" || o.coverageMin > 0
}

// writeReport creates the file a flag names and writes a report into it.
func writeReport(flag, path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", flag, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return nil
}
