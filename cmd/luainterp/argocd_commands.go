package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

func newArgoCDCommand() *cobra.Command {
	a := &argocdFlags{}
	cmd := &cobra.Command{
		Use:   "argocd",
		Short: "Run Argo CD's health checks and resource actions on an object",
		Long: `Run the Lua scripts of an Argo CD resource_customizations tree
(--argocd-customizations) and of an argocd-cm ConfigMap (--argocd-cm) on one
object, as Argo CD runs them: health checks, action discovery and actions.
Their test files (health_test.yaml, action_test.yaml) run with
luainterp test --format argocd. See docs/argocd.md.`,
		Example: `  luainterp argocd health --argocd-customizations resource_customizations rollout.yaml
  luainterp argocd action list --argocd-cm argocd-cm.yaml deployment.yaml
  luainterp argocd action run scale --param replicas=5 --argocd-customizations resource_customizations deployment.yaml
  luainterp argocd check --argocd-customizations resource_customizations --argocd-cm argocd-cm.yaml`,
	}
	a.add(cmd.PersistentFlags())
	action := &cobra.Command{
		Use:   "action",
		Short: "List or run an object's Argo CD resource actions",
		Example: `  luainterp argocd action list --argocd-customizations examples/argocd/resource_customizations \
    examples/argocd/resource_customizations/rabbitmq.com/RabbitmqCluster/testdata/available.yaml
  luainterp argocd action run restart --argocd-customizations examples/argocd/resource_customizations \
    examples/argocd/resource_customizations/rabbitmq.com/RabbitmqCluster/testdata/available.yaml`,
	}
	action.AddCommand(newArgoCDActionListCommand(a), newArgoCDActionRunCommand(a))
	cmd.AddCommand(newArgoCDHealthCommand(a), action, newArgoCDCheckCommand(a))
	return cmd
}

// interpreter returns the Argo CD interpreter of the flags, on an engine
// printing to the command's standard error.
func (a *argocdFlags) interpreter(cmd *cobra.Command) (*argocd.Interpreter, error) {
	c, err := a.required()
	if err != nil {
		return nil, err
	}
	return argocd.New(newEngine(cmd.ErrOrStderr()), c), nil
}

func newArgoCDHealthCommand(a *argocdFlags) *cobra.Command {
	var output *outputFlag
	cmd := &cobra.Command{
		Use:   "health OBJECT-FILE",
		Short: "Print the Argo CD health of an object, and what InterpretHealth answers from it",
		Long: `Run the health check of the object's kind and print its status and message,
and "healthy", InterpretHealth's answer from them (Healthy, Suspended and no
status: true; Progressing, Degraded and Missing: false; Unknown: an error).
A script's error is printed as Argo CD records it: Unknown with the error's
text. The exit status is 1 when no script covers the kind.`,
		Example: `  luainterp argocd health --argocd-customizations examples/argocd/resource_customizations \
    examples/argocd/resource_customizations/rabbitmq.com/RabbitmqCluster/testdata/available.yaml
  luainterp argocd health --argocd-cm argocd-cm.yaml -o json rollout.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := output.format()
			if err != nil {
				return err
			}
			in, err := a.interpreter(cmd)
			if err != nil {
				return err
			}
			obj, err := newInputs(cmd.InOrStdin()).object("OBJECT-FILE", args[0])
			if err != nil {
				return err
			}
			h, err := in.ObjectHealth(cmd.Context(), obj)
			if errors.Is(err, argocd.ErrNoScript) {
				return err
			}
			out := map[string]any{"status": string(h.Status), "message": h.Message}
			if healthy, err := argocd.IsHealthy(h); err == nil {
				out["healthy"] = healthy
			}
			return format.print(cmd.OutOrStdout(), out)
		},
	}
	output = addOutputFlag(cmd, formatYAML, formatJSON)
	return cmd
}

func newArgoCDActionListCommand(a *argocdFlags) *cobra.Command {
	var output *outputFlag
	cmd := &cobra.Command{
		Use:   "list OBJECT-FILE",
		Short: "List the actions Argo CD's discovery offers for an object",
		Example: `  luainterp argocd action list --argocd-customizations examples/argocd/resource_customizations \
    examples/argocd/resource_customizations/rabbitmq.com/RabbitmqCluster/testdata/available.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := output.format()
			if err != nil {
				return err
			}
			in, err := a.interpreter(cmd)
			if err != nil {
				return err
			}
			obj, err := newInputs(cmd.InOrStdin()).object("OBJECT-FILE", args[0])
			if err != nil {
				return err
			}
			actions, err := in.Discover(cmd.Context(), obj)
			if err != nil {
				return err
			}
			return format.print(cmd.OutOrStdout(), actions)
		},
	}
	output = addOutputFlag(cmd, formatYAML, formatJSON)
	return cmd
}

func newArgoCDActionRunCommand(a *argocdFlags) *cobra.Command {
	var output *outputFlag
	var params []string
	cmd := &cobra.Command{
		Use:   "run NAME OBJECT-FILE [--param NAME=VALUE ...]",
		Short: "Run one of an object's Argo CD actions and print the resources it returns",
		Long: `Run the named action of the object's kind with the parameters given and print
what it returns: {list, resources}, each resource an operation (create or
patch) and the object. An action written in Argo CD's old form, returning the
modified object, gives one patch and list false.`,
		Example: `  luainterp argocd action run restart --argocd-customizations examples/argocd/resource_customizations \
    examples/argocd/resource_customizations/rabbitmq.com/RabbitmqCluster/testdata/available.yaml
  luainterp argocd action run scale --param replicas=5 --argocd-cm argocd-cm.yaml deployment.yaml`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := output.format()
			if err != nil {
				return err
			}
			values := map[string]string{}
			for _, p := range params {
				k, v, ok := strings.Cut(p, "=")
				if !ok || k == "" {
					return fmt.Errorf("--param: %q is not NAME=VALUE", p)
				}
				values[k] = v
			}
			in, err := a.interpreter(cmd)
			if err != nil {
				return err
			}
			obj, err := newInputs(cmd.InOrStdin()).object("OBJECT-FILE", args[1])
			if err != nil {
				return err
			}
			res, err := in.RunAction(cmd.Context(), obj, args[0], values)
			if err != nil {
				return err
			}
			return format.print(cmd.OutOrStdout(), res)
		},
	}
	cmd.Flags().StringArrayVar(&params, "param", nil, "an action parameter, NAME=VALUE (repeatable)")
	output = addOutputFlag(cmd, formatYAML, formatJSON)
	return cmd
}

func newArgoCDCheckCommand(a *argocdFlags) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Compile and lint every Argo CD script of the tree and the ConfigMap",
		Long: `Compile every script of --argocd-customizations and --argocd-cm and lint it: one
line per script, PASS, WARN (a global it reads that nothing sets and the
sandbox lacks) or ERROR (it does not compile), with the file and Lua line.
The exit status is 1 on an ERROR (a WARN too, with --strict).`,
		Example: `  luainterp argocd check --argocd-customizations examples/argocd/resource_customizations
  luainterp argocd check --strict --argocd-cm argocd-cm.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.required()
			if err != nil {
				return err
			}
			failed := false
			for _, r := range argocd.Check(luavm.New(), c) {
				fmt.Fprintln(cmd.OutOrStdout(), r)
				failed = failed || r.Verdict == argocd.CheckError || (strict && r.Verdict == argocd.CheckWarn)
			}
			if failed {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "count warnings as errors")
	return cmd
}

// required is customizations, for a command that needs scripts.
func (a *argocdFlags) required() (*argocd.Customizations, error) {
	if !a.set() {
		return nil, errors.New("--argocd-customizations or --argocd-cm: required")
	}
	return a.customizations()
}
