package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/internal/manifest"
)

func newFailoverCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "failover",
		Example: `  luainterp failover simulate --binding binding.yaml --scenario unhealthy.yaml
  luainterp failover preserve --rules preservation.yaml --status member-status.json`,
		Short: "Work out offline what Karmada's application failover would do",
		Long: `Failover runs luainterp's application failover (package failover) on
files, without a cluster: the labels a stateful failover preserves
(preserve), and the passes of the application failover and graceful
eviction controllers over a scenario on a simulated clock (simulate).
docs/failover.md describes the behaviour and where it departs from
Karmada's.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newFailoverPreserveCommand())
	cmd.AddCommand(newFailoverSimulateCommand())
	return cmd
}

// readFile returns the contents of one file flag (a path, a URL or "-").
func readFile(stdin io.Reader, flag, path string) ([]byte, error) {
	files, err := (&manifest.Reader{Stdin: stdin}).Read(path)
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("%s: want one file, %s names %d", flag, path, len(files))
	}
	return files[0].Data, nil
}

// readBinding returns the one ResourceBinding or ClusterResourceBinding of
// a file.
func readBinding(stdin io.Reader, path string) (*api.ResourceBinding, error) {
	docs, err := (&manifest.Reader{Stdin: stdin}).Objects(path)
	if err != nil {
		return nil, err
	}
	return input.Binding(docs)
}
