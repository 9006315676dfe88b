package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/failover/simulate"
	"github.com/luainterp/luainterp/internal/manifest"
)

// taintManagerController is the --controller of cluster failover, which
// runs once over a Cluster rather than in steps.
const taintManagerController = "taint-manager"

// controllerNames are the controllers --controller names, sorted.
func controllerNames() []string {
	names := append(slices.Collect(maps.Keys(simulators)), taintManagerController)
	slices.Sort(names)
	return names
}

// runTaintManagerSimulation runs the taint manager over --cluster and
// --binding as --scenario says, and prints {enqueue, eviction}.
func runTaintManagerSimulation(cmd *cobra.Command, o *failoverSimulateOptions, format format) error {
	err := checkStdin(fileFlag{"--binding", []string{o.binding}}, fileFlag{"--scenario", []string{o.scenario}},
		fileFlag{"--cluster", []string{o.cluster}})
	if err != nil {
		return err
	}
	b, err := readBinding(cmd.InOrStdin(), o.binding)
	if err != nil {
		return err
	}
	data, err := readFile(cmd.InOrStdin(), "--scenario", o.scenario)
	if err != nil {
		return err
	}
	var s simulate.TaintScenario
	if err := yaml.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("--scenario %s: %w", o.scenario, err)
	}
	var cluster *api.Cluster
	if o.cluster != "" {
		docs, err := (&manifest.Reader{Stdin: cmd.InOrStdin()}).Objects(o.cluster)
		if err != nil {
			return err
		}
		clusters, err := input.Clusters(docs)
		if err != nil {
			return err
		}
		if len(clusters) != 1 {
			return fmt.Errorf("--cluster: want one Cluster, %s holds %d", o.cluster, len(clusters))
		}
		cluster = &clusters[0]
	}
	return format.print(cmd.OutOrStdout(), simulate.TaintManager(cluster, b, s))
}
