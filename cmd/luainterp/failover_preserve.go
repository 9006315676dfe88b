package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
)

type failoverPreserveOptions struct {
	rules, status string
	format        *outputFlag
}

func newFailoverPreserveCommand() *cobra.Command {
	var o failoverPreserveOptions
	cmd := &cobra.Command{
		Use: "preserve --rules F --status F",
		Example: `  luainterp failover preserve --rules preservation.yaml --status member-status.json
  kubectl get -o json flinkdeployment web | jq .status | luainterp failover preserve --rules preservation.yaml --status -`,
		Short: "Print the labels state preservation rules take from a status",
		Long: `Preserve builds the preservedLabelState of an eviction task as Karmada
does: each rule of --rules (a statePreservation, {rules: [{aliasLabelName,
jsonPath}]}) is a kubectl -o jsonpath template evaluated over --status, the
raw JSON status the evicted cluster reported (its aggregatedStatus item's
status, not the whole object).

It prints {labels: {...}}, or {error: message} with exit status 1 when a
rule fails (standard error then names the rule). Labels Kubernetes would
refuse are printed as Karmada injects them, with a warning on standard
error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runFailoverPreserve(cmd, &o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.rules, "rules", "", "the statePreservation: {rules: [{aliasLabelName, jsonPath}]} (file or -)")
	f.StringVar(&o.status, "status", "", "the raw JSON status of the evicted cluster (file or -)")
	o.format = addOutputFlag(cmd, formatYAML, formatJSON)
	_ = cmd.MarkFlagRequired("rules")
	_ = cmd.MarkFlagRequired("status")
	return cmd
}

func runFailoverPreserve(cmd *cobra.Command, o *failoverPreserveOptions) error {
	format, err := o.format.format()
	if err != nil {
		return err
	}
	if err := checkStdin(fileFlag{"--rules", []string{o.rules}}, fileFlag{"--status", []string{o.status}}); err != nil {
		return err
	}
	data, err := readFile(cmd.InOrStdin(), "--rules", o.rules)
	if err != nil {
		return err
	}
	var sp api.StatePreservation
	if err := yaml.UnmarshalStrict(data, &sp); err != nil {
		return fmt.Errorf("--rules %s: %w", o.rules, err)
	}
	status, err := readFile(cmd.InOrStdin(), "--status", o.status)
	if err != nil {
		return err
	}
	labels, buildErr := preserve.Build(sp.Rules, status)
	if buildErr != nil {
		if err := format.print(cmd.OutOrStdout(), map[string]string{"error": buildErr.Error()}); err != nil {
			return err
		}
		var re *preserve.RuleError
		if errors.As(buildErr, &re) {
			fmt.Fprintln(cmd.ErrOrStderr(), "error:", re.Describe())
		}
		return &exitError{code: 1}
	}
	for _, p := range preserve.Invalid(labels) {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", p)
	}
	return format.print(cmd.OutOrStdout(), map[string]any{"labels": labels})
}
