package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter"
)

// argocdFlags are --argocd-customizations and --argocd-cm: where Argo
// CD's scripts come from.
type argocdFlags struct {
	tree      string
	configMap string
	name      string // --argocd-cm-name, of serve: NAMESPACE/NAME in the API server
}

func (a *argocdFlags) add(f *pflag.FlagSet) {
	f.StringVar(&a.tree, "argocd-customizations", "", "an Argo CD resource_customizations tree (<group>/<Kind>/health.lua, actions/...) whose health checks answer InterpretHealth for the kinds no other layer covers")
	f.StringVar(&a.configMap, "argocd-cm", "", "an argocd-cm ConfigMap file whose resource.customizations keys override the tree's scripts")
}

// addServe adds the flags of serve and the controller: those of add, and --argocd-cm-name.
func (a *argocdFlags) addServe(f *pflag.FlagSet) {
	a.add(f)
	f.StringVar(&a.name, "argocd-cm-name", "", "with --kubeconfig or --in-cluster, NAMESPACE/NAME of an argocd-cm ConfigMap to follow in the API server, instead of --argocd-cm")
}

func (a *argocdFlags) set() bool { return a.tree != "" || a.configMap != "" }

// customizations loads the tree and the ConfigMap the flags name.
func (a *argocdFlags) customizations() (*argocd.Customizations, error) {
	var tree *argocd.Tree
	if a.tree != "" {
		var err error
		if tree, err = argocd.LoadTree(a.tree); err != nil {
			return nil, fmt.Errorf("--argocd-customizations: %w", err)
		}
	}
	var overrides []*argocd.Override
	if a.configMap != "" {
		var err error
		if overrides, err = argocd.ReadConfigMap(a.configMap); err != nil {
			return nil, fmt.Errorf("--argocd-cm: %w", err)
		}
	}
	return argocd.NewCustomizations(tree, overrides...), nil
}

// withArgoCD adds the Argo CD layer of the flags, when they name scripts.
func withArgoCD(a argocdFlags) registryOption {
	return func(c *registryConfig) { c.argocd = a }
}

// argocdTree reports whether path holds an Argo CD tree: a
// resource_customizations folder, or a health.lua, health_test.yaml or
// action_test.yaml somewhere below, and no customizations.yaml.
func argocdTree(path string) bool {
	if info, err := os.Stat(filepath.Join(path, argocd.TreeDir)); err == nil && info.IsDir() {
		return true
	}
	found := false
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		switch d.Name() {
		case "customizations.yaml":
			found = false
			return filepath.SkipAll
		case argocd.HealthFile, argocd.HealthTestFile, argocd.ActionTestFile:
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// withArgoCDHealth adds to the results of InterpretHealth the Argo CD
// health it was mapped from, when the argocd layer answered.
func withArgoCDHealth(ctx context.Context, reg *interpreter.Registry, req interpreter.Request, results map[string]any) map[string]any {
	if req.Operation != interpreter.InterpretHealth {
		return results
	}
	in, ok := reg.Get(interpreter.LayerArgoCD).(*argocd.Interpreter)
	if l, answers := reg.Which(req.Object.GroupVersionKind(), req.Operation); !ok || !answers || l != interpreter.LayerArgoCD {
		return results
	}
	if h, err := in.ObjectHealth(ctx, req.Object); err == nil {
		results["argocdHealth"] = h
	}
	return results
}
