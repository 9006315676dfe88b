package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/simulate"
)

// simulator runs one controller's passes over a scenario file: it returns
// the steps to print and the warnings for standard error.
type simulator func(b *api.ResourceBinding, scenario []byte) (steps any, warnings []string, err error)

// simulators are the controllers --controller names.
var simulators = map[string]simulator{
	"application-failover": simulateApplication,
	"graceful-eviction":    simulateEvictions,
}

type failoverSimulateOptions struct {
	binding, scenario, controller string
	cluster                       string // taint-manager only
	format                        *outputFlag
}

func newFailoverSimulateCommand() *cobra.Command {
	var o failoverSimulateOptions
	names := controllerNames()
	cmd := &cobra.Command{
		Use: "simulate --binding F --scenario F [--controller NAME] [--cluster F]",
		Example: `  luainterp failover simulate --binding binding.yaml --scenario unhealthy.yaml
  luainterp failover simulate --controller taint-manager --binding binding.yaml --cluster member1.yaml --scenario taint.yaml`,
		Short: "Run failover passes over a binding on a simulated clock",
		Long: `Simulate runs one controller's passes over --binding as the steps of
--scenario say (the conformance scenario format: each step moves the clock
by afterSeconds, may replace what other controllers write, then runs one
pass) and prints {steps: [...]}, what each pass wrote:

  application-failover  requeueAfterSeconds, error, updated, clusters,
                        gracefulEvictionTasks, unhealthySinceSeconds
  graceful-eviction     requeueAfterSeconds, patched, gracefulEvictionTasks
                        (with creationAgeSeconds), events

taint-manager (cluster failover) runs once, not in steps: the reconcile of
--cluster (omitted when the Cluster does not exist), then the eviction pass
of the binding on it, and prints {enqueue: {addedNow, addedAfterSeconds,
requeueAfterSeconds}, eviction: {error, updated, clusters,
gracefulEvictionTasks, retryAfterSeconds}}.

A pass that fails is part of the output (its error), not a failure of the
command. Warnings (a defaulted toleration, an unknown purge mode, a
preserved label Kubernetes would refuse) go to standard error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runFailoverSimulate(cmd, &o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.binding, "binding", "", "the ResourceBinding or ClusterResourceBinding (file or -)")
	f.StringVar(&o.scenario, "scenario", "", "the scenario (file or -)")
	f.StringVar(&o.cluster, "cluster", "", "the tainted Cluster (taint-manager; file or -)")
	f.StringVar(&o.controller, "controller", "application-failover", "the controller to run: "+orList(names))
	_ = cmd.RegisterFlagCompletionFunc("controller", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
	o.format = addOutputFlag(cmd, formatYAML, formatJSON)
	_ = cmd.MarkFlagRequired("binding")
	_ = cmd.MarkFlagRequired("scenario")
	return cmd
}

func runFailoverSimulate(cmd *cobra.Command, o *failoverSimulateOptions) error {
	format, err := o.format.format()
	if err != nil {
		return err
	}
	if strings.EqualFold(o.controller, taintManagerController) {
		return runTaintManagerSimulation(cmd, o, format)
	}
	run, ok := simulators[strings.ToLower(o.controller)]
	if !ok {
		return fmt.Errorf("--controller: unknown controller %q: want %s", o.controller, orList(controllerNames()))
	}
	if err := checkStdin(fileFlag{"--binding", []string{o.binding}}, fileFlag{"--scenario", []string{o.scenario}}); err != nil {
		return err
	}
	b, err := readBinding(cmd.InOrStdin(), o.binding)
	if err != nil {
		return err
	}
	scenario, err := readFile(cmd.InOrStdin(), "--scenario", o.scenario)
	if err != nil {
		return err
	}
	steps, warnings, err := run(b, scenario)
	if err != nil {
		return fmt.Errorf("--scenario %s: %w", o.scenario, err)
	}
	printLines(cmd.ErrOrStderr(), "warning:", warnings)
	return format.print(cmd.OutOrStdout(), map[string]any{"steps": steps})
}

func simulateApplication(b *api.ResourceBinding, data []byte) (any, []string, error) {
	var s simulate.ApplicationScenario
	if err := yaml.Unmarshal(data, &s); err != nil {
		return nil, nil, err
	}
	results := simulate.Application(b, s)
	var warnings []string
	for i := range results {
		for _, w := range results[i].Warnings {
			warnings = append(warnings, fmt.Sprintf("step %d: %s", i+1, w))
		}
		results[i].Warnings = nil
	}
	return results, warnings, nil
}

func simulateEvictions(b *api.ResourceBinding, data []byte) (any, []string, error) {
	var s simulate.EvictionScenario
	if err := yaml.Unmarshal(data, &s); err != nil {
		return nil, nil, err
	}
	return simulate.Evictions(b, s), nil, nil
}

func printLines(w io.Writer, prefix string, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, prefix, l)
	}
}
