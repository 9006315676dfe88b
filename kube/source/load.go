package source

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
)

// setCustomization loads a new version of a customization object.
// A version that would drop every operation its last good version defined
// is refused as empty (customization.Emptied): deleting the object is how
// its hooks are removed.
func (s *Source) setCustomization(u *unstructured.Unstructured, initial bool) {
	set, err := LoadCustomization(s.engine, u)
	if err == nil {
		err = customization.Emptied(ObjectName(CustomizationKind, u.GetName()), s.lastGood(u.GetName()), set)
	}
	setObject(s, s.customizations, &s.stale.customizations, CustomizationKind, u, initial, set, err)
}

// lastGood returns the version of the customization object name serving, nil when none does.
func (s *Source) lastGood(name string) *customization.Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.customizations[name]; o != nil && o.loaded {
		return o.good
	}
	return nil
}

// setWebhook loads a new version of a webhook configuration object.
func (s *Source) setWebhook(u *unstructured.Unstructured, initial bool) {
	config, err := LoadWebhookConfiguration(u, s.o.webhookOpts...)
	setObject(s, s.webhooks, &s.stale.webhooks, WebhookConfigurationKind, u, initial, config, err)
}

// setObject notes the outcome of loading version u of an object of kind
// into objects, marks its layer stale and reports the outcome (initial:
// u came with the informer's first list).
func setObject[T any](s *Source, objects map[string]*object[T], stale *bool, kind string, u *unstructured.Unstructured, initial bool, good T, err error) {
	s.mu.Lock()
	o := objects[u.GetName()]
	if o == nil {
		o = &object[T]{}
		objects[u.GetName()] = o
	}
	noteLoad(o, good, u, err)
	*stale = true
	s.countObjects()
	s.mu.Unlock()
	s.report(kind, u, o.goodVersion, initial, err)
	s.due()
}

// noteLoad notes the outcome of loading version u of o.
func noteLoad[T any](o *object[T], good T, u *unstructured.Unstructured, err error) {
	o.err, o.ref = err, reference(u)
	if err == nil {
		o.good, o.goodVersion, o.loaded = good, u.GetResourceVersion(), true
	}
}

func (s *Source) removeCustomization(u *unstructured.Unstructured) {
	removeObject(s, s.customizations, &s.stale.customizations, CustomizationKind, "customization deleted", u)
}

func (s *Source) removeWebhook(u *unstructured.Unstructured) {
	removeObject(s, s.webhooks, &s.stale.webhooks, WebhookConfigurationKind, "webhook configuration deleted", u)
}

// removeObject forgets the deleted object u of kind and marks its layer stale.
func removeObject[T any](s *Source, objects map[string]*object[T], stale *bool, kind, message string, u *unstructured.Unstructured) {
	s.mu.Lock()
	delete(objects, u.GetName())
	*stale = true
	s.countObjects()
	s.mu.Unlock()
	s.o.metrics.objectLoads.WithLabelValues(kind, "deleted").Inc()
	s.o.log.Info(message, "name", u.GetName())
	s.due()
}

// countObjects sets the luainterp_kube_objects gauges; s.mu is held.
func (s *Source) countObjects() {
	count := func(kind string, loaded, invalid int) {
		s.o.metrics.objects.WithLabelValues(kind, "loaded").Set(float64(loaded))
		s.o.metrics.objects.WithLabelValues(kind, "invalid").Set(float64(invalid))
	}
	loaded, invalid := tally(s.customizations)
	count(CustomizationKind, loaded, invalid)
	loaded, invalid = tally(s.webhooks)
	count(WebhookConfigurationKind, loaded, invalid)
}

// tally counts the objects with a version serving and those whose latest version was refused.
func tally[T any](objects map[string]*object[T]) (loaded, invalid int) {
	for _, o := range objects {
		if o.loaded {
			loaded++
		}
		if o.err != nil {
			invalid++
		}
	}
	return loaded, invalid
}

// goods returns the good versions of objects in name order.
func goods[T any](objects map[string]*object[T]) []T {
	names := make([]string, 0, len(objects))
	for name, o := range objects {
		if o.loaded {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	out := make([]T, len(names))
	for i, name := range names {
		out[i] = objects[name].good
	}
	return out
}

// rebuild builds the stale layers again and installs them; a layer that
// fails to build leaves the registry's as it was.
func (s *Source) rebuild() {
	s.mu.Lock()
	stale := s.stale
	s.stale.customizations, s.stale.webhooks = false, false
	var sets []*customization.Set
	var configs []*webhook.ResourceInterpreterWebhookConfiguration
	if stale.customizations {
		sets = append([]*customization.Set{s.files}, goods(s.customizations)...)
	}
	if stale.webhooks {
		configs = mergeWebhooks(s.fileWebhooks, goods(s.webhooks))
	}
	s.mu.Unlock()

	if stale.customizations {
		merged := customization.Merge(sets...)
		s.logWarnings(merged.Warnings)
		layer, err := customization.NewLayer(s.engine, merged)
		if err == nil {
			s.registry.Set(interpreter.LayerCustomization, layer)
			s.reportConflicts(merged.Conflicts)
		}
		s.reloaded("customization", err, len(merged.Customizations))
	}
	if stale.webhooks {
		built, err := client.New(configs, s.o.webhookOpts...)
		if err == nil {
			var layer interpreter.Interpreter // none without a webhook, as without --webhook-config
			if len(configs) > 0 {
				layer = built
			}
			s.registry.Set(interpreter.LayerWebhook, layer)
		}
		s.reloaded("webhook", err, len(configs))
	}
}

// mergeWebhooks returns the configurations of files and then those of the
// API server that no file's has the name of.
func mergeWebhooks(files, objects []*webhook.ResourceInterpreterWebhookConfiguration) []*webhook.ResourceInterpreterWebhookConfiguration {
	merged := slices.Clone(files)
	for _, c := range objects {
		if !slices.ContainsFunc(files, func(f *webhook.ResourceInterpreterWebhookConfiguration) bool { return f.Name == c.Name }) {
			merged = append(merged, c)
		}
	}
	slices.SortStableFunc(merged, func(a, b *webhook.ResourceInterpreterWebhookConfiguration) int { return cmp.Compare(a.Name, b.Name) })
	return merged
}

// reloaded records the outcome of rebuilding a layer.
func (s *Source) reloaded(layer string, err error, n int) {
	if err != nil {
		s.o.metrics.reloads.WithLabelValues(layer, "error").Inc()
		s.o.log.Error("layer not rebuilt: keeping the previous one", "layer", layer, "error", err)
		return
	}
	s.o.metrics.reloads.WithLabelValues(layer, "ok").Inc()
	s.o.metrics.lastReload.WithLabelValues(layer).Set(float64(time.Now().UnixNano()) / 1e9)
	s.o.log.Debug("layer rebuilt", "layer", layer, "objects", n)
}

// logWarnings logs the warnings not logged before.
func (s *Source) logWarnings(warnings []customization.Warning) {
	now := map[string]bool{}
	for _, w := range warnings {
		text := w.String()
		now[text] = true
		if !s.warned[text] {
			s.o.log.Warn("customization: " + text)
		}
	}
	s.warned = now
}

// logStart logs what the first rebuild loaded from where.
func (s *Source) logStart() {
	s.mu.Lock()
	defer s.mu.Unlock()
	files := 0
	if s.files != nil {
		files = len(s.files.Customizations)
	}
	loadedC, invalidC := tally(s.customizations)
	loadedW, invalidW := tally(s.webhooks)
	s.o.log.Info(fmt.Sprintf("loaded %d customizations and %d webhook configurations from the API server, %d and %d from files",
		loadedC, loadedW, files, len(s.fileWebhooks)),
		"apiServer", s.host, "invalidCustomizations", invalidC, "invalidWebhookConfigurations", invalidW)
}

// Customizations returns the customizations loaded from the API server,
// the last good version of each, in name order; not those of files.
func (s *Source) Customizations() []*customization.Customization {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*customization.Customization
	for _, set := range goods(s.customizations) {
		out = append(out, set.Customizations...)
	}
	return out
}

// WebhookConfigurations returns the names of the webhook configurations
// loaded from the API server, in name order; not those of files.
func (s *Source) WebhookConfigurations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, c := range goods(s.webhooks) {
		names = append(names, c.Name)
	}
	return names
}

// Host is the API server's address.
func (s *Source) Host() string { return s.host }

// Problem is an API object whose latest version did not load.
type Problem struct {
	Kind, Name string
	Serving    string // the resourceVersion still serving, "" when none
	Err        error
}

// Problems returns the objects whose latest version did not load, by kind then name.
func (s *Source) Problems() []Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Problem
	add := func(kind string, name string, serving string, err error) {
		if err != nil {
			out = append(out, Problem{Kind: kind, Name: name, Serving: serving, Err: err})
		}
	}
	for name, o := range s.customizations {
		add(CustomizationKind, name, o.goodVersion, o.err)
	}
	for name, o := range s.webhooks {
		add(WebhookConfigurationKind, name, o.goodVersion, o.err)
	}
	slices.SortFunc(out, func(a, b Problem) int { return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name)) })
	return out
}
