package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// interpretOptions are the flags of `luainterp interpret`.
type interpretOptions struct {
	customizations []string
	operation      string
	observedFile   string
	desiredFile    string
	statusFile     string
	desiredReplica int64
	output         *outputFlag
	check          bool
	showDoc        bool
	strict         bool
	crds           []string
	webhookConfigs []string
	timeout        time.Duration
	outputLimit    serveconfig.Bytes
	edit           bool
	argocd         argocdFlags
}

func newInterpretCommand() *cobra.Command {
	o := &interpretOptions{}
	cmd := &cobra.Command{
		Use:   "interpret [-f CUSTOMIZATION] --operation OP [--observed-file F] [--desired-file F] [--status-file F] [--desired-replica N] [--webhook-config F] [--timeout D] [-o yaml|json]",
		Short: "Run one operation of a customization on an object, or check customizations",
		Long: `Run one interpreter operation on an object, as karmadactl interpret does, and
print its results as one document keyed by the operation's result names.

Without -f, the answer comes from luainterp's own layers (built-in handlers
and bundled scripts): what luainterp does for a kind before you customize it.
With -f, the ResourceInterpreterCustomizations of the files sit on top of
those layers; a kind or operation they do not cover falls through.

Operations and the objects they read:
  InterpretReplica, ReviseReplica, InterpretComponent, InterpretStatus,
  InterpretHealth, InterpretDependency   --observed-file (or --desired-file)
  ReviseReplica                          also --desired-replica
  AggregateStatus                        --desired-file (or --observed-file) and
                                         --status-file, a list of AggregatedStatusItems
  Retain                                 --desired-file and --observed-file

--webhook-config asks the webhooks of ResourceInterpreterWebhookConfiguration
files, by their rules, below the customizations (as serve does). --timeout
bounds the operation. "-" reads a file from standard input. Lua print output goes to standard error.
With --check, every customization in the files is validated instead: one line
per rule (customization and key), PASS, UNSET, WARN or ERROR with the reason
(-o json: one JSON report). Each script is also linted: a global it reads
but never assigns that the sandbox does not hold (kube without
require("kube")), a require of a module Karmada's VM lacks (json) is a WARN,
an ERROR with --strict. Files holding no customization fail the check.
With --crd, a field path a script reads or writes on its object that the
CRD's schema for the target lacks (obj.spec.wokers) is a WARN too, naming
the closest field there is.

--edit opens $KUBE_EDITOR or $EDITOR (else vi) on the one file of -f, or,
without -f, on a new customization for the kind of the input object (kept in
a temporary file whose name is printed), then runs --operation on what was
saved, or checks it without --operation, as karmadactl interpret --edit does.
--show-doc prints what each rule's Lua function receives and must return.`,
		Example: `  luainterp interpret -f customization.yaml --operation InterpretReplica --observed-file cloneset.yaml
  luainterp interpret -f customization.yaml --operation ReviseReplica --observed-file cloneset.yaml --desired-replica 5 -o json
  luainterp interpret --operation InterpretHealth --observed-file deployment.yaml
  luainterp interpret -f customizations/ --check
  luainterp interpret -f customization.yaml --check --crd config/crd/bases/example.io_widgets.yaml
  luainterp interpret --edit --operation InterpretHealth --observed-file cloneset.yaml
  luainterp interpret --show-doc --operation AggregateStatus`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.showDoc {
				return o.runShowDoc(cmd)
			}
			if o.edit {
				return o.runEdit(cmd)
			}
			if o.check {
				return o.runCheck(cmd)
			}
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	addCustomizationFlag(f, &o.customizations)
	f.StringVar(&o.operation, "operation", "", "the operation to run: "+operationList())
	f.StringVar(&o.observedFile, "observed-file", "", "the object as a member cluster has it (YAML or JSON)")
	f.StringVar(&o.desiredFile, "desired-file", "", "the object as the control plane wants it (YAML or JSON)")
	f.StringVar(&o.statusFile, "status-file", "", "the member clusters' statuses: a list of AggregatedStatusItems (YAML or JSON)")
	f.Int64Var(&o.desiredReplica, "desired-replica", 0, "the replica count to set (ReviseReplica)")
	o.output = addOutputFlag(cmd, formatYAML, formatJSON)
	_ = cmd.RegisterFlagCompletionFunc("operation", completeOperations)
	f.BoolVar(&o.check, "check", false, "validate every customization in the files instead of running an operation")
	f.BoolVar(&o.edit, "edit", false, "open $KUBE_EDITOR or $EDITOR on the file of -f, or on a new customization for the input object's kind, then run --operation on it (or check it)")
	f.BoolVar(&o.showDoc, "show-doc", false, "print what each rule's Lua function receives and must return (those of --operation when given)")
	addWebhookConfigFlag(f, &o.webhookConfigs)
	f.DurationVar(&o.timeout, "timeout", luavm.DefaultTimeout, "the longest the operation may run (a script, or a --webhook-config webhook)")
	addOutputLimitFlag(f, &o.outputLimit)
	f.BoolVar(&o.strict, "strict", false, "with --check, count the linter's warnings as errors")
	o.argocd.add(f)
	f.StringArrayVar(&o.crds, "crd", nil, "with --check, a CustomResourceDefinition file (or folder of them): warn on each field path a script uses on its object that the target's schema lacks (repeatable)")
	return cmd
}

// runShowDoc prints the documentation of the rules, or of --operation's.
func (o *interpretOptions) runShowDoc(cmd *cobra.Command) error {
	if o.operation == "" {
		return showDoc(cmd.OutOrStdout())
	}
	op, err := interpreter.ParseOperation(o.operation)
	if err != nil {
		return fmt.Errorf("--operation: %w", err)
	}
	return showDoc(cmd.OutOrStdout(), op)
}

// run runs one operation and prints its results.
func (o *interpretOptions) run(cmd *cobra.Command) error {
	if o.operation == "" {
		return errors.New("--operation: required (or --check)")
	}
	op, err := interpreter.ParseOperation(o.operation)
	if err != nil {
		return fmt.Errorf("--operation: %w", err)
	}
	format, err := o.output.format()
	if err != nil {
		return err
	}
	if o.timeout <= 0 {
		return fmt.Errorf("--timeout: want a positive duration, got %s", o.timeout)
	}
	if err := checkStdin(fileFlag{"-f", o.customizations}, fileFlag{"--desired-file", []string{o.desiredFile}},
		fileFlag{"--observed-file", []string{o.observedFile}}, fileFlag{"--status-file", []string{o.statusFile}},
		fileFlag{"--webhook-config", o.webhookConfigs}); err != nil {
		return err
	}
	req, err := o.request(cmd, newInputs(cmd.InOrStdin()), op)
	if err != nil {
		return err
	}
	reg, err := newRegistry(withCustomizations(o.customizations...), withIO(cmd), withTimeout(o.timeout), withOutputLimit(o.outputLimit.N), withArgoCD(o.argocd))
	if err != nil {
		return err
	}
	if err := setWebhookLayer(cmd, reg, o.webhookConfigs); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeoutCause(cmd.Context(), o.timeout, fmt.Errorf("--timeout of %s: %w", o.timeout, context.DeadlineExceeded))
	defer cancel()
	resp, err := reg.Interpret(ctx, req)
	if err != nil {
		return fmt.Errorf("%s: %w%s", op, err, loadedInstead(reg, req, err))
	}
	return format.print(cmd.OutOrStdout(), withArgoCDHealth(ctx, reg, req, resp.Results()))
}

// loadedInstead says, for an operation no hook answers, that -f's
// customizations for the object's kind lack it, or which kinds of the
// same group or kind -f did load: a version or a kind that differs from
// the object's is the usual reason.
func loadedInstead(reg *interpreter.Registry, req interpreter.Request, err error) string {
	layer, ok := reg.Get(interpreter.LayerCustomization).(*customization.Layer)
	if !errors.Is(err, interpreter.ErrNoHook) || !ok {
		return ""
	}
	want := req.Object.GroupVersionKind()
	if slices.Contains(layer.Kinds(), want) {
		return fmt.Sprintf("; the customizations -f loaded for it define no %s", req.Operation.CustomizationKey())
	}
	var near []string
	for _, gvk := range layer.Kinds() {
		if gvk.Group == want.Group || strings.EqualFold(gvk.Kind, want.Kind) {
			near = append(near, interpreter.GVKString(gvk))
		}
	}
	if len(near) == 0 {
		return ""
	}
	return fmt.Sprintf("; -f loaded customizations for %s", strings.Join(near, "; "))
}

// request reads the inputs op needs from the files the flags name.
func (o *interpretOptions) request(cmd *cobra.Command, in *inputs, op interpreter.Operation) (interpreter.Request, error) {
	desired, err := in.object("--desired-file", o.desiredFile)
	if err != nil {
		return interpreter.Request{}, err
	}
	observed, err := in.object("--observed-file", o.observedFile)
	if err != nil {
		return interpreter.Request{}, err
	}
	req := interpreter.NewRequest(op, desired, observed)
	req.DesiredReplicas = o.desiredReplica
	if op == interpreter.AggregateStatus {
		if req.StatusItems, err = in.statusItems("--status-file", o.statusFile); err != nil {
			return req, err
		}
	}
	switch {
	case op == interpreter.Retain && (desired == nil || observed == nil):
		return req, errors.New("--desired-file and --observed-file: required for Retain")
	case req.Object == nil:
		return req, fmt.Errorf("--observed-file or --desired-file: required for %s", op)
	case op == interpreter.ReviseReplica && !cmd.Flags().Changed("desired-replica"):
		return req, errors.New("--desired-replica: required for ReviseReplica")
	}
	return req, nil
}
