package main

import (
	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/interpreter"
)

func newStatusCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "status",
		Example: `  luainterp status aggregate --resource binding.yaml --works works/ --template deployment.yaml`,
		Short:   "Compute offline what the status loop writes to a binding and its template",
		Args:    cobra.NoArgs,
	}
	cmd.AddCommand(newStatusAggregateCommand())
	return cmd
}

type statusAggregateOptions struct {
	resource, template string
	works              []string
	customizations     []string
	format             *outputFlag
}

func newStatusAggregateCommand() *cobra.Command {
	var o statusAggregateOptions
	cmd := &cobra.Command{
		Use: "aggregate --resource F --works F... [--template F] [-f CUSTOMIZATION]...",
		Example: `  luainterp status aggregate --resource binding.yaml --works works/
  luainterp status aggregate --resource binding.yaml --works works/ --template cloneset.yaml -f customizations/`,
		Short: "Fold a binding's Works into its status.aggregatedStatus, and the template's status",
		Long: `Aggregate does offline what Karmada's binding status controller does
when a member cluster reports: from the Works of a binding (with the status
the member side writes: the Applied condition and manifestStatuses) it
builds the binding's status.aggregatedStatus, one item per Work not being
deleted, sorted by cluster name, and prints it as "aggregatedStatus".

--resource is the binding's spec.resource: a file holding a reference
(apiVersion, kind, namespace, name) or the ResourceBinding or
ClusterResourceBinding itself.

With --template, the AggregateStatus hook of luainterp's layers (the
built-in handlers, the bundled scripts and the customizations of -f on top)
folds the items into the template: "aggregatedTemplate" is the template
with its new status, as a controller would write it, "aggregated" whether
a hook answers for its kind (without one the template is left as it is),
and "templateStatusChanged" whether its .status changed.

A Work whose namespace is no execution space (karmada-es-<cluster>) or
that has no manifest for the resource fails the command with Karmada's
error, naming the Work and the cluster.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStatusAggregate(cmd, &o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.resource, "resource", "", "the binding's spec.resource, or the binding (file or -)")
	f.StringArrayVar(&o.works, "works", nil, "the binding's Works (files or folders; repeatable; - for stdin)")
	f.StringVar(&o.template, "template", "", "the resource template, to aggregate its status (file or -)")
	addCustomizationFlag(f, &o.customizations)
	o.format = addOutputFlag(cmd, formatYAML, formatJSON)
	_ = cmd.MarkFlagRequired("resource")
	_ = cmd.MarkFlagRequired("works")
	return cmd
}

// statusInput is what status aggregate read.
type statusInput struct{ status.Input }

func runStatusAggregate(cmd *cobra.Command, o *statusAggregateOptions) error {
	format, err := o.format.format()
	if err != nil {
		return err
	}
	err = checkStdin(fileFlag{"--resource", []string{o.resource}}, fileFlag{"--works", o.works},
		fileFlag{"--template", []string{o.template}}, fileFlag{"-f/--filename", o.customizations})
	if err != nil {
		return err
	}
	in, err := readStatusInput(&input.Reader{Stdin: cmd.InOrStdin()}, o)
	if err != nil {
		return err
	}
	var interp interpreter.Interpreter = interpreter.NewRegistry()
	if in.Template != nil {
		if interp, err = newRegistry(withCustomizations(o.customizations...), withIO(cmd)); err != nil {
			return err
		}
	}
	res, err := status.New(interp).Pass(cmd.Context(), in.Input)
	if err != nil {
		return err
	}
	out := map[string]any{"aggregatedStatus": res.AggregatedStatus}
	if in.Template != nil {
		out["aggregatedTemplate"] = res.Template(in.Template).Object
		out["aggregated"] = res.Aggregated
		out["templateStatusChanged"] = res.TemplateChanged
	}
	return format.print(cmd.OutOrStdout(), out)
}

func readStatusInput(r *input.Reader, o *statusAggregateOptions) (statusInput, error) {
	var in statusInput
	docs, err := r.Objects(o.resource)
	if err != nil {
		return in, err
	}
	if in.Resource, err = input.Resource(docs); err != nil {
		return in, err
	}
	if b, err := input.Binding(docs); err == nil {
		in.Binding = bindingKey(b)
	}
	if docs, err = r.Objects(o.works...); err != nil {
		return in, err
	}
	if in.Works, err = input.Works(docs); err != nil {
		return in, err
	}
	if o.template == "" {
		return in, nil
	}
	if docs, err = r.Objects(o.template); err != nil {
		return in, err
	}
	in.Template, err = input.Template(docs)
	return in, err
}

// bindingKey names a binding as a work queue does: namespace/name, or
// name for a ClusterResourceBinding.
func bindingKey(b *api.ResourceBinding) string {
	if b.Namespace == "" {
		return b.Name
	}
	return b.Namespace + "/" + b.Name
}
