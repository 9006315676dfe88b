package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Shell completion: cobra's completion command writes the scripts, and
// these functions offer the values of the flags that take names. -o offers
// the formats of its command (addOutputFlag).

// completeOperations offers the operations' wire names.
func completeOperations(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var names []cobra.Completion
	for _, op := range interpreter.Operations() {
		names = append(names, cobra.CompletionWithDesc(op.String(), "Lua function "+op.LuaFunction()+", key "+op.CustomizationKey()))
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// knownKinds returns the kinds luainterp's own layers have hooks for:
// the built-in handlers' and the bundled scripts'.
func knownKinds() []schema.GroupVersionKind {
	reg, err := newRegistry()
	if err != nil {
		return nil
	}
	return withLayerKinds(nil, reg)
}

// completeKinds offers the known kinds, those of --api-version when it
// is given, each described by its apiVersion.
func completeKinds(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	apiVersion, _ := cmd.Flags().GetString("api-version")
	var kinds []cobra.Completion
	for _, gvk := range knownKinds() {
		if v := gvk.GroupVersion().String(); apiVersion == "" || v == apiVersion {
			kinds = append(kinds, cobra.CompletionWithDesc(gvk.Kind, v))
		}
	}
	return dedupe(kinds), cobra.ShellCompDirectiveNoFileComp
}

// completeAPIVersions offers the apiVersions of the known kinds, those of
// --kind when it is given.
func completeAPIVersions(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	kind, _ := cmd.Flags().GetString("kind")
	var versions []cobra.Completion
	for _, gvk := range knownKinds() {
		if kind == "" || strings.EqualFold(gvk.Kind, kind) {
			versions = append(versions, gvk.GroupVersion().String())
		}
	}
	slices.Sort(versions)
	return dedupe(versions), cobra.ShellCompDirectiveNoFileComp
}

// dedupe drops repeated names, keeping the first (and its description).
func dedupe(names []cobra.Completion) []cobra.Completion {
	var out []cobra.Completion
	seen := map[string]bool{}
	for _, n := range names {
		name, _, _ := strings.Cut(n, "\t")
		if !seen[name] {
			seen[name] = true
			out = append(out, n)
		}
	}
	return out
}

// addKindCompletion registers the completion of --api-version and --kind.
func addKindCompletion(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("api-version", completeAPIVersions)
	_ = cmd.RegisterFlagCompletionFunc("kind", completeKinds)
}
