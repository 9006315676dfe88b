package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
)

// playgroundOptions are the flags of `luainterp playground`.
type playgroundOptions struct {
	addr          string
	customization string
	object        string
	open          bool
	timeout       time.Duration
	outputLimit   serveconfig.Bytes
}

func newPlaygroundCommand() *cobra.Command {
	o := &playgroundOptions{}
	cmd := &cobra.Command{
		Use:   "playground [--addr HOST:PORT] [-f CUSTOMIZATION|SUITE] [--object F] [--open]",
		Short: "Edit a customization in the browser and see every operation's answer as you type",
		Long: `Serve a local web page for writing a customization: an editor for the
ResourceInterpreterCustomization (YAML with its Lua) and one for the object
(with the observed object of Retain, the status items of AggregateStatus,
the replica count of ReviseReplica). Every operation's answer is shown as you
type, with the layer that gave it, an object answer as a diff against its
input, and an error at its line in the editor with its message and Lua stack.
"Run tests" runs the test cases (luainterp test's format) and shades the
lines they ran; "Save as test case" adds the current answer as a case.

-f is a customization file, or a suite folder (customizations.yaml and
testdata/*.yaml, whose cases fill the test case editor); without it, a
starter example. Scripts run as luainterp interpret runs them: the built-in
handlers and bundled scripts below the customization, the same sandbox,
--timeout and --output-limit. The page and its scripts are in the binary
and need no network. The server listens on loopback unless --addr names
another address; docs/playground.md documents its JSON API.`,
		Example: `  luainterp playground
  luainterp playground -f examples/rabbitmq --open
  luainterp playground -f customization.yaml --object cloneset.yaml --addr 127.0.0.1:9090`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "the address to listen on; a non-loopback address lets other hosts run scripts here")
	f.StringVarP(&o.customization, "filename", "f", "", "a customization file, or a suite folder (customizations.yaml and testdata/), to start from")
	f.StringVar(&o.object, "object", "", "an object file (YAML or JSON) to start from")
	f.BoolVar(&o.open, "open", false, "open the page in the browser")
	f.DurationVar(&o.timeout, "timeout", luavm.DefaultTimeout, "the longest one script call may run")
	addOutputLimitFlag(f, &o.outputLimit)
	return cmd
}

func (o *playgroundOptions) run(cmd *cobra.Command) error {
	if o.timeout <= 0 {
		return fmt.Errorf("--timeout: want a positive duration, got %s", o.timeout)
	}
	start, err := playground.LoadStart(o.customization, o.object)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	srv := &http.Server{Handler: o.server(cmd, start), ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(cmd.OutOrStdout(), "playground: %s (%s)\n", url, reach(ln.Addr()))
	if o.open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: --open: %v; open %s yourself\n", err, url)
		}
	}
	ctx := cmd.Context()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// server is the playground on the engine and registry of the other
// commands, and the suite layer of luainterp test.
func (o *playgroundOptions) server(cmd *cobra.Command, start playground.Start) *playground.Server {
	engineOpts := []luavm.Option{luavm.WithTimeout(o.timeout), luavm.WithOutputLimit(o.outputLimit.N)}
	engine := newEngine(cmd.ErrOrStderr(), engineOpts...)
	return playground.New(
		playground.WithStart(start),
		playground.WithTimeout(o.timeout+time.Second),
		playground.WithLogger(slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))),
		playground.WithRegistry(func(set *customization.Set) (*interpreter.Registry, error) {
			return newRegistry(withEngine(engine), withCustomizationSet(set))
		}),
		playground.WithSuiteLayer(func(cov *luavm.Coverage) testsuite.LayerFunc {
			return newSuiteLayer(cov, engineOpts...)
		}),
	)
}

// reach says who can reach a listener at addr.
func reach(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		return "loopback only: reachable from this host alone"
	}
	return "not loopback: other hosts can reach it and run scripts here"
}

// openBrowser opens url in the desktop's browser.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go func() { _ = c.Wait() }()
	return nil
}
