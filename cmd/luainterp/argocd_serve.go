package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/argocd/kubecm"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// install installs the argocd layer of serve and the controller into reg: the tree and ConfigMap
// file of the flags, or the tree with the ConfigMap --argocd-cm-name
// names in the API server, installed anew at each change of it. A
// ConfigMap whose scripts cannot be read keeps the last good layer (the
// error is logged); a deleted one leaves the tree's scripts alone.
func (a *argocdFlags) install(ctx context.Context, reg *interpreter.Registry, engine *luavm.Engine, k *kubeOptions, log *slog.Logger) error {
	if a.name == "" {
		if !a.set() {
			return nil
		}
		c, err := a.customizations()
		if err != nil {
			return err
		}
		reg.Set(interpreter.LayerArgoCD, argocd.New(engine, c))
		return nil
	}
	namespace, name, ok := strings.Cut(a.name, "/")
	switch {
	case !ok || namespace == "" || name == "":
		return fmt.Errorf("--argocd-cm-name: %q is not NAMESPACE/NAME", a.name)
	case a.configMap != "":
		return errors.New("--argocd-cm-name: give it or --argocd-cm, not both")
	case !k.enabled():
		return errors.New("--argocd-cm-name: needs --kubeconfig or --in-cluster")
	}
	base, err := a.customizations()
	if err != nil {
		return err
	}
	cfg, err := k.config()
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	where := "configmap " + a.name
	return kubecm.Follow(ctx, client, namespace, name, func(cm *corev1.ConfigMap) {
		var overrides []*argocd.Override
		if cm != nil {
			if overrides, err = argocd.ParseConfigMap(where, cm.Data); err != nil {
				log.Error("argocd-cm not loaded; the last good version stays", "configMap", a.name, "error", err)
				return
			}
		}
		reg.Set(interpreter.LayerArgoCD, argocd.New(engine, argocd.NewCustomizations(base.Tree, overrides...)))
		log.Info("loaded the Argo CD customizations", "configMap", a.name, "overrides", len(overrides), "exists", cm != nil)
	})
}
