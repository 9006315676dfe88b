package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/source"
	"github.com/luainterp/luainterp/webhook"
)

// kubeOptions say which API server a command talks to, by client-go's
// loading rules, as kubectl finds it: --kubeconfig, else $KUBECONFIG, else
// ~/.kube/config, at --context (else the file's current context); or the
// cluster the process runs in (--in-cluster, or no kubeconfig at all
// inside a pod).
type kubeOptions struct {
	kubeconfig string
	context    string
	inCluster  bool
}

func (k *kubeOptions) addFlags(f *pflag.FlagSet) {
	f.StringVar(&k.kubeconfig, "kubeconfig", "", "the kubeconfig file of the API server to read ResourceInterpreterCustomizations and ResourceInterpreterWebhookConfigurations from (else $KUBECONFIG, as kubectl reads it)")
	f.StringVar(&k.context, "context", "", "the kubeconfig context to use (else its current context)")
	f.BoolVar(&k.inCluster, "in-cluster", false, "read them from the API server of the cluster this runs in, as its service account")
}

// enabled reports whether an API server was asked for by a flag.
func (k *kubeOptions) enabled() bool { return k.kubeconfig != "" || k.context != "" || k.inCluster }

// found reports whether an API server is asked for by a flag or found
// as kubectl would find one: $KUBECONFIG, ~/.kube/config, or a pod's
// service account.
func (k *kubeOptions) found() bool {
	return k.enabled() || inPod() || kubeconfigFound()
}

// kubeconfigFound reports whether $KUBECONFIG (or, without it,
// ~/.kube/config) names a file that exists.
func kubeconfigFound() bool {
	for _, path := range clientcmd.NewDefaultClientConfigLoadingRules().GetLoadingPrecedence() {
		if _, err := os.Stat(path); err == nil {
			return true
		}
	}
	return false
}

// inPod reports whether the process runs in a pod of a cluster.
func inPod() bool {
	return os.Getenv("KUBERNETES_SERVICE_HOST") != "" && os.Getenv("KUBERNETES_SERVICE_PORT") != ""
}

func (k *kubeOptions) check() error {
	if (k.kubeconfig != "" || k.context != "") && k.inCluster {
		return errors.New("--kubeconfig or --context, and --in-cluster: give one or the other")
	}
	return nil
}

// config returns the API server's client configuration.
func (k *kubeOptions) config() (*rest.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = k.kubeconfig
	if k.inCluster || !k.enabled() && inPod() && !kubeconfigFound() {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("--in-cluster: %w", err)
		}
		return cfg, nil
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: k.context}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig (--kubeconfig, $KUBECONFIG or ~/.kube/config): %w", err)
	}
	return cfg, nil
}

// liveRegistry is a registry whose customization and webhook layers
// follow an API server, with the files of -f and --webhook-config merged in.
type liveRegistry struct {
	reg          *interpreter.Registry
	engine       *luavm.Engine
	source       *source.Source
	files        *customization.Set
	fileWebhooks []*webhook.ResourceInterpreterWebhookConfiguration
}

// newLiveRegistry reads the files (failing on any problem, as without
// --kubeconfig) and makes a Source for the API server of k, its scripts
// run on engine (a new one when nil); Start it.
func newLiveRegistry(cmd *cobra.Command, k *kubeOptions, engine *luavm.Engine, customizations, webhookConfigs []string, opts ...source.Option) (*liveRegistry, error) {
	cfg, err := k.config()
	if err != nil {
		return nil, err
	}
	if engine == nil {
		engine = newEngine(cmd.ErrOrStderr())
	}
	reg, err := newRegistry(withIO(cmd), withEngine(engine))
	if err != nil {
		return nil, err
	}
	l := &liveRegistry{reg: reg, engine: engine}
	if len(customizations) > 0 {
		set, err := customization.Loader{Stdin: cmd.InOrStdin()}.Load(customizations...)
		printWarnings(cmd.ErrOrStderr(), set.Warnings)
		if err != nil {
			return nil, err
		}
		if _, err := customization.NewLayer(engine, set); err != nil {
			return nil, err
		}
		l.files = set
	}
	if len(webhookConfigs) > 0 {
		loaded, err := webhook.Loader{Stdin: cmd.InOrStdin()}.Load(webhookConfigs...)
		if err != nil {
			return nil, fmt.Errorf("--webhook-config: %w", err)
		}
		for _, w := range loaded.Warnings {
			fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
		}
		l.fileWebhooks = loaded.Configurations
	}
	opts = append([]source.Option{source.WithFiles(l.files), source.WithFileWebhooks(l.fileWebhooks)}, opts...)
	l.source, err = source.New(cfg, reg, engine, opts...)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// watchFiles reloads the customization files into the Source when they
// change, until ctx is done, by the rules of customization.Reloader: a
// file whose new contents do not load, or would drop every operation it
// defined, keeps its last good version; w reports what each reload did.
func (l *liveRegistry) watchFiles(ctx context.Context, paths []string, w *fileWatch) error {
	// A scratch registry: the Source installs the layers.
	reloader := w.reloader(interpreter.NewRegistry(), l.engine, paths, func(set *customization.Set) {
		l.source.SetFiles(set, l.fileWebhooks)
	})
	return reloader.Start(ctx)
}
