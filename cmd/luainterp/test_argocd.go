package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite/report"
)

// The test formats of `luainterp test --format`.
const (
	testFormatAuto    = "auto"
	testFormatKarmada = "karmada"
	testFormatArgoCD  = "argocd"
)

// argocdConfigMapFile is the argocd-cm a tree's root may hold for its
// tests, used when --argocd-cm is not given.
const argocdConfigMapFile = "argocd-cm.yaml"

// isArgoCD reports whether path is run as an Argo CD tree.
func (r *testRun) isArgoCD(path string) bool {
	switch r.format {
	case testFormatArgoCD:
		return true
	case testFormatKarmada:
		return false
	}
	return argocdTree(path)
}

// argocdTests runs the health_test.yaml and action_test.yaml files of the
// Argo CD tree in path, a suite per kind folder, against the tree's
// scripts with the overrides of --argocd-cm (or of the tree's own
// argocd-cm.yaml) over them.
func (r *testRun) argocdTests(ctx context.Context, path string) {
	tree, err := argocd.LoadTree(path)
	if err != nil {
		r.notLoaded(&report.Suite{Name: path, Dir: path, Err: err})
		return
	}
	flags := argocdFlags{configMap: r.argocdCM}
	if own := filepath.Join(path, argocdConfigMapFile); flags.configMap == "" && fileExists(own) {
		flags.configMap = own
	}
	c, err := flags.customizations()
	if err != nil {
		r.notLoaded(&report.Suite{Name: path, Dir: path, Err: err})
		return
	}
	c.Tree = tree
	opts := []luavm.Option{luavm.WithTimeout(r.timeout), luavm.WithOutputLimit(r.outputLimit.N)}
	var cov *luavm.Coverage
	if r.recordsCoverage() {
		cov = luavm.NewCoverage()
		opts = append(opts, luavm.WithCoverage(cov))
	}
	engine := luavm.New(opts...)
	if cov != nil {
		for _, s := range c.Scripts() {
			_, _ = engine.Compile(s.Name, s.Source) // registers its lines; an error fails its cases
		}
	}
	in := argocd.New(engine, c)
	for _, f := range tree.Folders() {
		if len(f.Tests) == 0 || !r.mayMatch(f.Key) {
			continue
		}
		results := in.RunTests(ctx, f, argocd.TestOptions{Selected: r.selected, Strict: r.strict, Each: r.text.Result})
		r.report.Suites = append(r.report.Suites, &report.Suite{Name: f.Key, Dir: f.Dir, Results: results})
	}
	if cov != nil {
		r.report.Coverage = append(r.report.Coverage, argocdCoverage(path, c, cov)...)
	}
}

// argocdCoverage is the coverage of every script of c.
func argocdCoverage(suite string, c *argocd.Customizations, cov *luavm.Coverage) []*report.ScriptCoverage {
	var out []*report.ScriptCoverage
	for _, s := range c.Scripts() {
		hits := map[int]int{}
		for _, l := range cov.Lines(s.Name) {
			hits[l.Line] = l.Hits
		}
		sc := &report.ScriptCoverage{Suite: suite, Customization: string(s.Role), File: s.Name, Source: s.Source, Hits: hits, Branches: cov.Branches(s.Name)}
		out = append(out, sc)
	}
	return out
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// checkTestFormat checks --format.
func checkTestFormat(format string) error {
	switch format {
	case testFormatAuto, testFormatKarmada, testFormatArgoCD:
		return nil
	}
	return fmt.Errorf("--format: %q is not auto, karmada or argocd", format)
}
