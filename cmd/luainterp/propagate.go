package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/internal/manifest"
)

type propagateOptions struct {
	template, binding  string
	clusters, policies []string
	customizations     []string
	outDir             string
	format             *outputFlag
	failoverInjection  bool
}

func newPropagateCommand() *cobra.Command {
	var o propagateOptions
	cmd := &cobra.Command{
		Use: "propagate --template F --binding F [--clusters F]... [--policies F]... [-f CUSTOMIZATION]...",
		Example: `  luainterp propagate --template deployment.yaml --binding binding.yaml
  luainterp propagate --template cloneset.yaml --binding binding.yaml --clusters clusters/ --policies overrides/ -f customizations/
  luainterp propagate --template deployment.yaml --binding binding.yaml --out works/`,
		Short: "Turn a resource template and its binding into the Works Karmada would create",
		Long: `Propagate runs the binding pipeline: for every target cluster of the
ResourceBinding (or ClusterResourceBinding) it revises the template's
replicas, divides a Job's completions, applies the ClusterOverridePolicies
and OverridePolicies, and writes the Work as Karmada's binding controller
would. Each flag takes files or folders of YAML or JSON documents, or "-"
for standard input.

The Works go to standard output as one stream sorted by namespace then
name, or with --out into DIR/<namespace>/<name>.yaml. A summary, one line
per cluster, goes to standard error. The exit status is 1 when any cluster
failed, after the other clusters' Works are written.

Without --clusters, every target cluster is taken to be a Cluster with
only its name (no labels, provider, region or zones).

Replicas are revised by luainterp's layers: the built-in handlers, the
bundled scripts, and the ResourceInterpreterCustomizations of -f on top.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPropagate(cmd, &o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.template, "template", "", "the resource template (file or -)")
	f.StringVar(&o.binding, "binding", "", "the ResourceBinding or ClusterResourceBinding (file or -)")
	f.StringArrayVar(&o.clusters, "clusters", nil, "Cluster objects (files or folders; repeatable)")
	f.StringArrayVar(&o.policies, "policies", nil, "OverridePolicy and ClusterOverridePolicy objects (files or folders; repeatable)")
	addCustomizationFlag(f, &o.customizations)
	// --customizations is the name issue 5 and Karmada users know; -f is the
	// name every other command uses. Both add to the same list.
	f.StringArrayVar(&o.customizations, "customizations", nil, "the same as -f")
	f.BoolVar(&o.failoverInjection, "stateful-failover-injection", false,
		"Karmada's StatefulFailoverInjection feature gate: a binding with one target cluster whose last eviction task purged Directly gets the task's preserved labels on its manifest")
	f.StringVar(&o.outDir, "out", "", "write one file per Work into this folder instead of standard output")
	o.format = addOutputFlag(cmd, formatYAML, formatJSON)
	_ = cmd.MarkFlagRequired("template")
	_ = cmd.MarkFlagRequired("binding")
	return cmd
}

func runPropagate(cmd *cobra.Command, o *propagateOptions) error {
	format, err := o.format.format()
	if err != nil {
		return err
	}
	err = checkStdin(fileFlag{"--template", []string{o.template}}, fileFlag{"--binding", []string{o.binding}},
		fileFlag{"--clusters", o.clusters}, fileFlag{"--policies", o.policies}, fileFlag{"-f/--customizations", o.customizations})
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	in, warnings, err := readPropagateInput(cmd.InOrStdin(), o)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	registry, err := newRegistry(withCustomizations(o.customizations...), withIO(cmd))
	if err != nil {
		return err
	}
	var pipeline []binding.Option
	if o.failoverInjection {
		pipeline = append(pipeline, binding.WithStatefulFailoverInjection())
	}
	result, err := binding.New(registry, pipeline...).Run(cmd.Context(), in)
	if err != nil {
		return err
	}
	works := result.Works()
	slices.SortFunc(works, func(a, b *api.Work) int {
		return strings.Compare(a.Namespace+"\x00"+a.Name, b.Namespace+"\x00"+b.Name)
	})
	if err := writeWorks(cmd.OutOrStdout(), o.outDir, format, works); err != nil {
		return err
	}
	failed := printSummary(stderr, result)
	if failed > 0 {
		return &exitError{code: 1}
	}
	return nil
}

func readPropagateInput(stdin io.Reader, o *propagateOptions) (binding.Input, []string, error) {
	r := &manifest.Reader{Stdin: stdin}
	var in binding.Input
	docs, err := r.Objects(o.template)
	if err != nil {
		return in, nil, err
	}
	if in.Template, err = input.Template(docs); err != nil {
		return in, nil, err
	}
	if docs, err = r.Objects(o.binding); err != nil {
		return in, nil, err
	}
	if in.Binding, err = input.Binding(docs); err != nil {
		return in, nil, err
	}
	if docs, err = r.Objects(o.clusters...); err != nil {
		return in, nil, err
	}
	if in.Clusters, err = input.Clusters(docs); err != nil {
		return in, nil, err
	}
	if len(o.clusters) == 0 {
		in.Clusters = bareClusters(in.Binding)
	}
	if docs, err = r.Objects(o.policies...); err != nil {
		return in, nil, err
	}
	policies, warnings, err := input.Policies(docs)
	if err != nil {
		return in, nil, err
	}
	in.Overrides, err = overrides.NewSet(policies)
	return in, warnings, err
}

// bareClusters stands in for the Cluster objects when none are given: one
// per target cluster, with only its name.
func bareClusters(b *api.ResourceBinding) []api.Cluster {
	var clusters []api.Cluster
	for _, t := range binding.TargetClusters(&b.Spec) {
		c := api.Cluster{}
		c.Name = t.Name
		clusters = append(clusters, c)
	}
	return clusters
}

// writeWorks writes the Works to stdout, or one file each below outDir.
func writeWorks(stdout io.Writer, outDir string, format format, works []*api.Work) error {
	for i, w := range works {
		data, err := format.encode(w)
		if err != nil {
			return fmt.Errorf("encode work %s/%s: %w", w.Namespace, w.Name, err)
		}
		if outDir != "" {
			dir := filepath.Join(outDir, w.Namespace)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, w.Name+"."+string(format)), data, 0o644); err != nil {
				return err
			}
			continue
		}
		if i > 0 && format == formatYAML {
			io.WriteString(stdout, "---\n")
		}
		if _, err := stdout.Write(data); err != nil {
			return err
		}
	}
	return nil
}

// printSummary writes one line per cluster and returns how many failed.
func printSummary(w io.Writer, r *binding.Result) int {
	failed := 0
	for _, c := range r.Clusters {
		if c.Err != nil {
			failed++
			fmt.Fprintf(w, "FAIL %v\n", c.Err)
			continue
		}
		line := fmt.Sprintf("ok   cluster %s: work %s/%s, replicas %d", c.Cluster, c.Work.Namespace, c.Work.Name, c.Replicas)
		if c.Completions != nil {
			line += fmt.Sprintf(", completions %d", *c.Completions)
		}
		applied := append(c.Overrides.Cluster.Names(), c.Overrides.Namespaced.Names()...)
		if len(applied) == 0 {
			applied = []string{"none"}
		}
		fmt.Fprintf(w, "%s, overrides: %s\n", line, strings.Join(applied, ", "))
	}
	fmt.Fprintf(w, "%d clusters: %d succeeded, %d failed\n", len(r.Clusters), len(r.Clusters)-failed, failed)
	return failed
}
