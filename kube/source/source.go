package source

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
)

// Source keeps a registry's LayerCustomization and LayerWebhook in step
// with the API server's objects and the files given to it. Make one with
// New, then Start it.
type Source struct {
	registry *interpreter.Registry
	engine   *luavm.Engine
	dynamic  dynamic.Interface
	kube     kubernetes.Interface
	host     string
	o        options
	events   *events

	mu             sync.Mutex
	files          *customization.Set
	fileWebhooks   []*webhook.ResourceInterpreterWebhookConfiguration
	customizations map[string]*object[*customization.Set]
	webhooks       map[string]*object[*webhook.ResourceInterpreterWebhookConfiguration]
	stale          struct{ customizations, webhooks bool } // layers to rebuild
	kick           chan struct{}                           // a rebuild is due
	warned         map[string]bool                         // warnings of the customization layer already logged
	conflicts      map[string]string                       // the Conflict Event last recorded on each customization object
	lastConflicts  []customization.Conflict                // those of the customization layer installed
}

// New returns a Source reading the API server of cfg into reg, compiling
// scripts on engine.
func New(cfg *rest.Config, reg *interpreter.Registry, engine *luavm.Engine, opts ...Option) (*Source, error) {
	o := options{log: slog.New(slog.DiscardHandler), metrics: NewMetrics(), resync: 0}
	for _, opt := range opts {
		opt(&o)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Source{
		registry: reg, engine: engine, dynamic: dyn, kube: kube, host: cfg.Host, o: o,
		files: o.files, fileWebhooks: o.fileWebhooks,
		customizations: map[string]*object[*customization.Set]{},
		webhooks:       map[string]*object[*webhook.ResourceInterpreterWebhookConfiguration]{},
		kick:           make(chan struct{}, 1),
		warned:         map[string]bool{},
		conflicts:      map[string]string{},
	}, nil
}

// Start checks the permissions it needs, starts the informers, waits until
// they have listed every object, installs the layers and logs what was
// loaded from where; then it keeps the layers in step until ctx is done.
// It fails with an *AccessError when a permission is missing, and with
// ctx's error when ctx is done before the lists arrive.
func (s *Source) Start(ctx context.Context) error {
	if err := s.checkAccess(ctx); err != nil {
		return err
	}
	s.events = newEvents(s.kube, s.o.log)
	factory := dynamicinformer.NewDynamicSharedInformerFactory(s.dynamic, s.o.resync)
	customizations := factory.ForResource(CustomizationResource).Informer()
	webhooks := factory.ForResource(WebhookConfigurationResource).Informer()
	var handled []cache.InformerSynced
	for _, inf := range []struct {
		informer cache.SharedIndexInformer
		resource string
		set      func(u *unstructured.Unstructured, initial bool)
		remove   func(*unstructured.Unstructured)
	}{
		{customizations, CustomizationResource.GroupResource().String(), s.setCustomization, s.removeCustomization},
		{webhooks, WebhookConfigurationResource.GroupResource().String(), s.setWebhook, s.removeWebhook},
	} {
		registration, err := inf.informer.AddEventHandler(handler(inf.set, inf.remove))
		if err != nil {
			return err
		}
		handled = append(handled, registration.HasSynced)
		resource := inf.resource
		if err := inf.informer.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
			s.o.log.Warn("API server: cannot list or watch; serving the last good layers and retrying", "resource", resource, "error", err)
		}); err != nil {
			return err
		}
	}
	factory.Start(ctx.Done())
	// The handlers' sync, not the informers': an informer has synced once
	// its store holds the list, while its handlers may still be loading
	// what the list brought. Ready means loaded.
	if !cache.WaitForCacheSync(ctx.Done(), handled...) {
		factory.Shutdown()
		return fmt.Errorf("listing %s and %s from %s: %w", CustomizationResource.Resource, WebhookConfigurationResource.Resource, s.host, context.Cause(ctx))
	}
	s.rebuild()
	s.logStart()
	go func() {
		defer factory.Shutdown()
		defer s.events.stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.kick:
				s.rebuild()
			}
		}
	}()
	return nil
}

// handler calls set for an added or updated object (initial when it came
// with the informer's first list) and remove for a deleted one.
func handler(set func(*unstructured.Unstructured, bool), remove func(*unstructured.Unstructured)) cache.ResourceEventHandlerDetailedFuncs {
	return cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				set(u, initial)
			}
		},
		UpdateFunc: func(_, obj any) {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				set(u, false)
			}
		},
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if u, ok := obj.(*unstructured.Unstructured); ok {
				remove(u)
			}
		},
	}
}

// SetFiles replaces the customizations and webhook configurations read
// from files (a nil set or slice means none), rebuilding the layers.
func (s *Source) SetFiles(set *customization.Set, webhooks []*webhook.ResourceInterpreterWebhookConfiguration) {
	s.mu.Lock()
	s.files, s.fileWebhooks = set, webhooks
	s.stale.customizations, s.stale.webhooks = true, true
	s.mu.Unlock()
	s.due()
}

// due asks for a rebuild, without waiting for it.
func (s *Source) due() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// options are what the Options set.
type options struct {
	log          *slog.Logger
	metrics      *Metrics
	files        *customization.Set
	fileWebhooks []*webhook.ResourceInterpreterWebhookConfiguration
	webhookOpts  []client.Option
	resync       time.Duration
}

// Option configures a Source.
type Option func(*options)

// WithLogger logs loads, refusals and access problems to log.
func WithLogger(log *slog.Logger) Option { return func(o *options) { o.log = log } }

// WithMetrics counts loads in m (NewMetrics makes one per Source otherwise).
func WithMetrics(m *Metrics) Option { return func(o *options) { o.metrics = m } }

// WithFiles merges in the customizations read from files; see SetFiles.
func WithFiles(set *customization.Set) Option { return func(o *options) { o.files = set } }

// WithFileWebhooks merges in the webhook configurations read from files.
func WithFileWebhooks(configs []*webhook.ResourceInterpreterWebhookConfiguration) Option {
	return func(o *options) { o.fileWebhooks = slices.Clone(configs) }
}

// WithWebhookOptions are the options of the webhook layer's client.
func WithWebhookOptions(opts ...client.Option) Option {
	return func(o *options) { o.webhookOpts = opts }
}
