package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/scaffold"
	"github.com/luainterp/luainterp/internal/manifest"
)

// initOptions are the flags of `luainterp init`.
type initOptions struct {
	apiVersion string
	kind       string
	fromCRD    string
}

func newInitCommand() *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init [DIR] --api-version GROUP/VERSION --kind KIND [--from-crd CRD]",
		Short: "Start a customization: write a suite folder that luainterp test passes on",
		Long: `Write a test suite folder for a kind: customizations.yaml, a
ResourceInterpreterCustomization with a working, commented script for every
key, and testdata/ with one case per rule, built from a sample object, whose
expected output is what the script returns. luainterp test passes on it as
written; change the scripts and the expected output together from there.

With --from-crd, the sample follows the CRD's openAPIV3Schema (its required
fields, spec.replicas, the first pod template under spec, the status fields)
and the scripts read the fields the schema has; --api-version and --kind
then default to the CRD's storage version and kind. Without it, the sample
is shaped like a Deployment (spec.replicas, spec.template).

DIR defaults to the kind in lower case. Nothing is overwritten: init fails if
a file it would write exists.`,
		Example: `  luainterp init --api-version apps.example.com/v1 --kind Widget
  luainterp init rabbitmq --from-crd rabbitmq.com_rabbitmqclusters.yaml
  luainterp init --api-version leaderworkerset.x-k8s.io/v1 --kind LeaderWorkerSet --from-crd lws.yaml && luainterp test leaderworkerset`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringVar(&o.apiVersion, "api-version", "", "the kind's group and version, e.g. apps.example.com/v1")
	f.StringVar(&o.kind, "kind", "", "the kind, e.g. Widget")
	f.StringVar(&o.fromCRD, "from-crd", "", "the kind's CustomResourceDefinition (file, URL or -), for a sample object that follows its schema")
	addKindCompletion(cmd)
	return cmd
}

func (o *initOptions) run(cmd *cobra.Command, args []string) error {
	t, err := o.target(cmd)
	if err != nil {
		return err
	}
	dir := strings.ToLower(t.GVK.Kind)
	if len(args) == 1 {
		dir = args[0]
	}
	written, err := scaffold.Write(cmd.Context(), dir, t)
	if err != nil {
		return err
	}
	for _, path := range written {
		fmt.Fprintln(cmd.OutOrStdout(), "wrote", path)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "next: luainterp test %s\n", dir)
	return nil
}

// target is the kind the flags name, with the CRD's schema when given.
func (o *initOptions) target(cmd *cobra.Command) (scaffold.Target, error) {
	var gv schema.GroupVersion
	if o.apiVersion != "" {
		var err error
		if gv, err = schema.ParseGroupVersion(o.apiVersion); err != nil {
			return scaffold.Target{}, fmt.Errorf("--api-version: %w", err)
		}
		if gv.Version == "" {
			return scaffold.Target{}, fmt.Errorf("--api-version: %q has no version: want GROUP/VERSION", o.apiVersion)
		}
	}
	gvk := gv.WithKind(o.kind)
	if o.fromCRD == "" {
		if o.apiVersion == "" || o.kind == "" {
			return scaffold.Target{}, errors.New("--api-version and --kind: required (or --from-crd)")
		}
		return scaffold.Target{GVK: gvk}, nil
	}
	t, err := scaffold.ReadCRD(&manifest.Reader{Stdin: cmd.InOrStdin()}, o.fromCRD, gvk)
	if err != nil {
		return t, fmt.Errorf("--from-crd: %w", err)
	}
	return t, nil
}
