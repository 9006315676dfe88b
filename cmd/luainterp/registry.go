package main

import (
	"cmp"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
)

// registryConfig is what newRegistry wires; see the registryOptions.
type registryConfig struct {
	customizations []string
	set            *customization.Set // customizations already read (withCustomizationSet)
	stdin          io.Reader
	stderr         io.Writer
	engine         *luavm.Engine
	timeout        time.Duration // of a script call; luavm's default when 0
	outputLimit    int64         // of a script call's result; luavm's default when 0
	argocd         argocdFlags   // Argo CD's scripts, for the argocd layer
}

// registryOption configures newRegistry.
type registryOption func(*registryConfig)

// addCustomizationFlag adds -f/--filename, the customization files of a
// command that answers from the registry; pass the paths to withCustomizations.
func addCustomizationFlag(f *pflag.FlagSet, paths *[]string) {
	f.StringArrayVarP(paths, "filename", "f", nil, "ResourceInterpreterCustomization file or directory (YAML or JSON; repeatable; - for stdin)")
}

// withCustomizations puts the ResourceInterpreterCustomizations of the
// files and directories on top of the other layers ("-" reads stdin).
func withCustomizations(paths ...string) registryOption {
	return func(c *registryConfig) { c.customizations = append(c.customizations, paths...) }
}

// withCustomizationSet puts the customizations of set on top of the
// other layers, in place of files (the playground's editor).
func withCustomizationSet(set *customization.Set) registryOption {
	return func(c *registryConfig) { c.set = set }
}

// withIO takes the command's standard input (for "-") and standard error
// (for warnings and Lua print output).
func withIO(cmd *cobra.Command) registryOption {
	return func(c *registryConfig) { c.stdin, c.stderr = cmd.InOrStdin(), cmd.ErrOrStderr() }
}

// withEngine runs the scripts on engine instead of a new one, for a
// caller that runs more scripts on it (serve --watch reloads
// customizations onto it).
func withEngine(engine *luavm.Engine) registryOption {
	return func(c *registryConfig) { c.engine = engine }
}

// withTimeout bounds each script call of a new engine.
func withTimeout(d time.Duration) registryOption {
	return func(c *registryConfig) { c.timeout = d }
}

// withOutputLimit bounds the JSON of each script call's result of a new
// engine (luavm.WithOutputLimit).
func withOutputLimit(n int64) registryOption {
	return func(c *registryConfig) { c.outputLimit = n }
}

// addOutputLimitFlag adds --output-limit, the engine's output limit, to f.
func addOutputLimitFlag(f *pflag.FlagSet, limit *serveconfig.Bytes) {
	*limit = serveconfig.B(luavm.DefaultOutputLimit)
	f.Var(limit, "output-limit", "the longest one Lua call's result may be as JSON, shared strings counted each time (bytes, or a quantity such as 3Mi)")
}

// newRegistry wires the layers every command answers from: the built-in
// handlers, the bundled third-party scripts above them, and the
// customizations given withCustomizations on top, all on one Lua engine;
// Argo CD's health checks (withArgoCD) below them all.
// Loading warnings go to standard error; any loading error fails.
func newRegistry(opts ...registryOption) (*interpreter.Registry, error) {
	cfg := registryConfig{stderr: io.Discard}
	for _, opt := range opts {
		opt(&cfg)
	}
	engine := cfg.engine
	if engine == nil {
		engine = newEngine(cfg.stderr, luavm.WithTimeout(cmp.Or(cfg.timeout, luavm.DefaultTimeout)), luavm.WithOutputLimit(cfg.outputLimit))
	}
	reg := interpreter.NewRegistry().
		Set(interpreter.LayerBuiltin, builtin.New()).
		Set(interpreter.LayerThirdParty, scripts.NewLayer(engine))
	if cfg.argocd.set() {
		c, err := cfg.argocd.customizations()
		if err != nil {
			return nil, err
		}
		reg.Set(interpreter.LayerArgoCD, argocd.New(engine, c))
	}
	set := cfg.set
	if set == nil {
		if len(cfg.customizations) == 0 {
			return reg, nil
		}
		var err error
		set, err = customization.Loader{Stdin: cfg.stdin}.Load(cfg.customizations...)
		printWarnings(cfg.stderr, set.Warnings)
		if err != nil {
			return nil, err
		}
	}
	layer, err := customization.NewLayer(engine, set)
	if err != nil {
		return nil, err
	}
	return reg.Set(interpreter.LayerCustomization, layer), nil
}

// newEngine returns the Lua engine of the command's scripts, printing to stderr.
func newEngine(stderr io.Writer, opts ...luavm.Option) *luavm.Engine {
	return luavm.New(append([]luavm.Option{luavm.WithPrint(func(line string) { fmt.Fprintln(stderr, line) })}, opts...)...)
}

func printWarnings(w io.Writer, warnings []customization.Warning) {
	for _, warning := range warnings {
		fmt.Fprintln(w, "warning:", warning)
	}
}
