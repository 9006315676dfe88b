package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/kube/source"
)

// layersOptions are the flags of `luainterp layers`.
type layersOptions struct {
	customizations []string
	apiVersion     string
	kind           string
	objectFile     string
	output         *outputFlag
	webhookConfigs []string
	kube           kubeOptions
	argocd         argocdFlags
}

func newLayersCommand() *cobra.Command {
	o := &layersOptions{}
	cmd := &cobra.Command{
		Use:   "layers [--api-version V --kind K | --object-file F] [-f CUSTOMIZATION] [--webhook-config F] [-o text|yaml|json]",
		Short: "Show which layer answers each operation for a kind",
		Long: `Show, for each interpreter operation, which layer answers it for a kind:
customization (the files of -f), webhook, thirdparty (bundled scripts) or
builtin (luainterp's Go handlers for Kubernetes' own kinds); "-" when none
does, and the operation fails. The webhook layer is that of the
ResourceInterpreterWebhookConfigurations of --webhook-config, matched by
their rules without calling them. The first place to look when a customization
"does nothing": another layer may answer first, or its kind may not match.

The kind comes from --api-version and --kind, or from the apiVersion and
kind of the object in --object-file. Without either, every kind the layers
know is listed: the built-in kinds, the bundled scripts' and the targets of
the customizations.`,
		Example: `  luainterp layers --api-version apps/v1 --kind Deployment
  luainterp layers --object-file cloneset.yaml -f customizations/
  luainterp layers -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	addCustomizationFlag(f, &o.customizations)
	f.StringVar(&o.apiVersion, "api-version", "", "the kind's group and version, e.g. apps/v1")
	f.StringVar(&o.kind, "kind", "", "the kind, e.g. Deployment")
	f.StringVar(&o.objectFile, "object-file", "", "an object whose apiVersion and kind to use (YAML or JSON; - for stdin)")
	o.output = addOutputFlag(cmd, formatText, formatYAML, formatJSON)
	o.argocd.add(f)
	addKindCompletion(cmd)
	addWebhookConfigFlag(f, &o.webhookConfigs)
	o.kube.addFlags(f)
	return cmd
}

// kindLayers is which layer answers each operation for one kind; a nil
// layer means none.
type kindLayers struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Operations map[string]*string `json:"operations"`
}

func (o *layersOptions) run(cmd *cobra.Command) error {
	format, err := o.output.format()
	if err != nil {
		return err
	}
	if err := checkStdin(fileFlag{"-f", o.customizations}, fileFlag{"--object-file", []string{o.objectFile}},
		fileFlag{"--webhook-config", o.webhookConfigs}); err != nil {
		return err
	}
	gvks, err := o.kinds(cmd)
	if err != nil {
		return err
	}
	reg, live, err := o.registry(cmd)
	if err != nil {
		return err
	}
	if o.listAll() {
		gvks = withLayerKinds(gvks, reg)
	}
	rows := make([]kindLayers, len(gvks))
	for i, gvk := range gvks {
		rows[i] = kindLayers{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Operations: map[string]*string{}}
		for _, op := range interpreter.Operations() {
			if layer, ok := reg.Which(gvk, op); ok {
				name := layer.String()
				rows[i].Operations[op.String()] = &name
			} else {
				rows[i].Operations[op.String()] = nil
			}
		}
	}
	if format == formatText {
		if err := printLayers(cmd.OutOrStdout(), rows); err != nil {
			return err
		}
		if live != nil {
			return printLive(cmd.OutOrStdout(), live)
		}
		return nil
	}
	return format.print(cmd.OutOrStdout(), rows)
}

// registry returns the layers to show: from -f, or from the API server
// with -f merged in (found as kubectl finds it, see kubeOptions), whose objects it lists
// once; the Source is nil without the API server.
func (o *layersOptions) registry(cmd *cobra.Command) (*interpreter.Registry, *source.Source, error) {
	if err := o.kube.check(); err != nil {
		return nil, nil, err
	}
	if !o.kube.found() {
		fmt.Fprintln(cmd.ErrOrStderr(), "offline: no API server (no --kubeconfig, $KUBECONFIG, ~/.kube/config or pod); showing -f, --webhook-config and the bundled layers")
		reg, err := newRegistry(withCustomizations(o.customizations...), withIO(cmd), withArgoCD(o.argocd))
		if err == nil {
			err = setWebhookLayer(cmd, reg, o.webhookConfigs)
		}
		return reg, nil, err
	}
	live, err := newLiveRegistry(cmd, &o.kube, nil, o.customizations, o.webhookConfigs)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
	defer cancel() // the layers stay as the first list made them
	if err := live.source.Start(ctx); err != nil {
		return nil, nil, err
	}
	return live.reg, live.source, nil
}

// printLive lists the API server's objects behind the layers, those
// that did not load, and the operations two customizations define.
func printLive(w io.Writer, live *source.Source) error {
	var names []string
	for _, c := range live.Customizations() {
		names = append(names, c.Name)
	}
	fmt.Fprintf(w, "\nfrom the API server %s:\n", live.Host())
	fmt.Fprintf(w, "  customizations: %s\n", orNone(names))
	fmt.Fprintf(w, "  webhook configurations: %s\n", orNone(live.WebhookConfigurations()))
	for _, p := range live.Problems() {
		serving := "nothing of it serves"
		if p.Serving != "" {
			serving = "resourceVersion " + p.Serving + " serves"
		}
		fmt.Fprintf(w, "  not loaded: %s %s (%s): %v\n", p.Kind, p.Name, serving, p.Err)
	}
	for _, c := range live.Conflicts() {
		fmt.Fprintf(w, "  conflict: %s of %s: %q is used, %q is not (customizations apply in name order, the first wins)\n",
			c.Operation.CustomizationKey(), interpreter.GVKString(c.Target), c.Used.Name, c.Unused.Name)
	}
	return nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// listAll reports whether no kind is named: every known kind is shown.
func (o *layersOptions) listAll() bool {
	return o.objectFile == "" && o.kind == "" && o.apiVersion == ""
}

// kindLister is a layer that can list the kinds it has hooks for.
type kindLister interface {
	Kinds() []schema.GroupVersionKind
}

// withLayerKinds adds to gvks the kinds the registry's layers list
// (built-in handlers, bundled scripts, the targets of the customizations),
// sorted.
func withLayerKinds(gvks []schema.GroupVersionKind, reg *interpreter.Registry) []schema.GroupVersionKind {
	for _, l := range interpreter.Layers() {
		lister, ok := reg.Get(l).(kindLister)
		if !ok {
			continue
		}
		for _, gvk := range lister.Kinds() {
			if !slices.Contains(gvks, gvk) {
				gvks = append(gvks, gvk)
			}
		}
	}
	slices.SortFunc(gvks, compareGVK)
	return gvks
}

// kinds returns the kind the flags name; none when they name none (then
// every kind the layers list is shown).
func (o *layersOptions) kinds(cmd *cobra.Command) ([]schema.GroupVersionKind, error) {
	switch {
	case o.objectFile != "" && (o.apiVersion != "" || o.kind != ""):
		return nil, errors.New("--object-file: give either an object or --api-version and --kind, not both")
	case o.objectFile != "":
		obj, err := newInputs(cmd.InOrStdin()).object("--object-file", o.objectFile)
		if err != nil {
			return nil, err
		}
		return []schema.GroupVersionKind{obj.GroupVersionKind()}, nil
	case (o.apiVersion == "") != (o.kind == ""):
		return nil, errors.New("--api-version and --kind: give both, or neither to list every known kind")
	case o.kind != "":
		gv, err := schema.ParseGroupVersion(o.apiVersion)
		if err != nil {
			return nil, fmt.Errorf("--api-version: %w", err)
		}
		return []schema.GroupVersionKind{gv.WithKind(o.kind)}, nil
	}
	return nil, nil
}

func compareGVK(a, b schema.GroupVersionKind) int {
	return strings.Compare(a.Group+"/"+a.Version+"/"+a.Kind, b.Group+"/"+b.Version+"/"+b.Kind)
}

// printLayers writes one block per kind: its operations and their layers.
func printLayers(w io.Writer, rows []kindLayers) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, row := range rows {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "%s %s\n", row.APIVersion, row.Kind)
		for _, op := range interpreter.Operations() {
			layer := "-"
			if l := row.Operations[op.String()]; l != nil {
				layer = *l
			}
			fmt.Fprintf(tw, "  %s\t%s\n", op, layer)
		}
	}
	return tw.Flush()
}
