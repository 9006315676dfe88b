// Package kubecm follows an argocd-cm ConfigMap in the API server: an
// informer watches the one ConfigMap by name, and every version of it
// (and its deletion) is handed to a callback, which typically parses it
// (argocd.ParseConfigMap) and installs a new argocd layer in a registry.
//
//	synced, err := kubecm.Follow(ctx, clientset, "argocd", "argocd-cm", func(cm *corev1.ConfigMap) {
//		overrides, err := argocd.ParseConfigMap("configmap argocd/argocd-cm", cm.Data)
//		...
//	})
package kubecm
