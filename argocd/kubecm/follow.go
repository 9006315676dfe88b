package kubecm

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Follow starts an informer on the ConfigMap namespace/name until ctx is
// done, and calls apply with it when it is listed, added or changed, and
// with nil when it is deleted (or does not exist once listed). Calls come
// one at a time. It returns once the first list has been applied, or with
// ctx's error.
func Follow(ctx context.Context, client kubernetes.Interface, namespace, name string, apply func(*corev1.ConfigMap)) error {
	var mu sync.Mutex
	applied := false
	set := func(cm *corev1.ConfigMap, initial bool) {
		mu.Lock()
		defer mu.Unlock()
		if initial && applied {
			return
		}
		applied = true
		apply(cm)
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
		}))
	informer := factory.Core().V1().ConfigMaps().Informer()
	reg, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { set(configMap(obj), false) },
		UpdateFunc: func(_, obj any) { set(configMap(obj), false) },
		DeleteFunc: func(any) { set(nil, false) },
	})
	if err != nil {
		return err
	}
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
		return fmt.Errorf("following ConfigMap %s/%s: %w", namespace, name, context.Cause(ctx))
	}
	set(nil, true) // none was listed
	return nil
}

// configMap is obj as a ConfigMap, nil for anything else.
func configMap(obj any) *corev1.ConfigMap {
	cm, _ := obj.(*corev1.ConfigMap)
	return cm
}
