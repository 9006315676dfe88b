package main

import (
	"cmp"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are what `make build` stamps with -ldflags
// "-X main.version=... -X main.commit=...": `git describe` and the commit.
// When empty, the build information the Go toolchain records is used: the
// module version ("v1.2.3" for a binary built by `go install ...@v1.2.3`,
// "(devel)" in a working copy) and the VCS revision, when it recorded one.
var version, commit string

// buildInfo is what `luainterp version` reports.
type buildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion"`
}

// readBuildInfo returns the binary's build information: the stamped
// version and commit, else the module version and VCS revision the
// toolchain recorded, and the Go version; "unknown" for what neither says.
func readBuildInfo() buildInfo {
	info := buildInfo{Version: version, Commit: commit, GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		info.Version = cmp.Or(info.Version, bi.Main.Version)
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = cmp.Or(info.Commit, s.Value)
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	info.Version = cmp.Or(info.Version, "unknown")
	info.Commit = cmp.Or(info.Commit, "unknown")
	return info
}

// String is the one line `luainterp --version` prints.
func (b buildInfo) String() string {
	commit := b.Commit
	if b.Modified {
		commit += " (modified)"
	}
	return fmt.Sprintf("luainterp %s (commit %s, %s)", b.Version, commit, b.GoVersion)
}

func newVersionCommand() *cobra.Command {
	var output *outputFlag
	cmd := &cobra.Command{
		Use: "version [-o text|yaml|json]",
		Example: `  luainterp version
  luainterp version -o json`,
		Short: "Print luainterp's version, commit and Go version",
		Long: `Print the version luainterp was built as (stamped by make build, else the
module version go install recorded, "(devel)" in a working copy), the commit
it was built from and the Go version that built it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := output.format()
			if err != nil {
				return err
			}
			info := readBuildInfo()
			if format == formatText {
				_, err := fmt.Fprintln(cmd.OutOrStdout(), info)
				return err
			}
			return format.print(cmd.OutOrStdout(), info)
		},
	}
	output = addOutputFlag(cmd, formatText, formatYAML, formatJSON)
	return cmd
}
