package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/internal/manifest"
)

// ConfigError is a problem with a configuration file or one of its
// documents: where it is ("file:line: document N", and the configuration's
// name when known) and what is wrong.
type ConfigError = manifest.Error

// Loader reads ResourceInterpreterWebhookConfigurations from files.
type Loader struct {
	// Stdin is read for the path "-"; nil means standard input is not offered.
	Stdin io.Reader
}

// Loaded is what a Loader read.
type Loaded struct {
	// Configurations are the valid configurations, sorted by name. Their
	// webhooks are consulted in the order of "<configuration name>/<webhook
	// name>" (see package webhook/client), which is not always this order:
	// "a-b/..." comes before "a/...".
	Configurations []*ResourceInterpreterWebhookConfiguration
	// Warnings are documents skipped for their kind.
	Warnings []string
}

// Load reads the configurations of every path: a YAML or JSON file of one
// or more documents (a List counts as its items), a directory (every
// *.yaml, *.yml and *.json file below it, hidden entries skipped) or "-"
// for l.Stdin. Documents of other kinds are skipped with a warning. Every
// problem is reported, each a *ConfigError, joined in one error; the
// configurations are returned only when there is none.
func (l Loader) Load(paths ...string) (*Loaded, error) {
	objs, err := (&manifest.Reader{Stdin: l.Stdin}).Objects(paths...)
	loaded := &Loaded{}
	found, errs := decodeConfigurations(objs, &loaded.Warnings)
	errs = append([]error{err}, errs...)
	byName := map[string]manifest.Source{}
	for _, c := range found {
		if first, dup := byName[c.config.Name]; dup {
			errs = append(errs, &ConfigError{Source: c.source, Name: c.config.Name, Err: fmt.Errorf("metadata.name: duplicate of %s", first)})
			continue
		}
		byName[c.config.Name] = c.source
		loaded.Configurations = append(loaded.Configurations, c.config)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.Slice(loaded.Configurations, func(i, j int) bool { return loaded.Configurations[i].Name < loaded.Configurations[j].Name })
	return loaded, nil
}

// Parse decodes and validates the configurations of one file's contents;
// name stands for the file in messages.
func Parse(name string, data []byte) ([]*ResourceInterpreterWebhookConfiguration, error) {
	objs, err := manifest.Parse(name, data)
	found, errs := decodeConfigurations(objs, nil)
	if err := errors.Join(append([]error{err}, errs...)...); err != nil {
		return nil, err
	}
	configs := make([]*ResourceInterpreterWebhookConfiguration, len(found))
	for i, c := range found {
		configs[i] = c.config
	}
	return configs, nil
}

// located is a configuration and where it was read.
type located struct {
	config *ResourceInterpreterWebhookConfiguration
	source manifest.Source
}

// decodeConfigurations decodes the configurations among objs, adding a
// warning for each object of another kind when warnings is not nil.
func decodeConfigurations(objs []manifest.Object, warnings *[]string) ([]located, []error) {
	var (
		found []located
		errs  []error
	)
	for _, obj := range objs {
		apiVersion, _ := obj.Object["apiVersion"].(string)
		if kind, _ := obj.Object["kind"].(string); kind != ConfigurationKind {
			if warnings != nil {
				*warnings = append(*warnings, obj.Source.String()+": "+manifest.Skipped(apiVersion, kind, ConfigurationKind))
			}
			continue
		}
		config, problems := decodeConfiguration(obj.Object)
		for _, err := range problems {
			errs = append(errs, &ConfigError{Source: obj.Source, Name: config.Name, Err: err})
		}
		if len(problems) == 0 {
			found = append(found, located{config, obj.Source})
		}
	}
	return found, errs
}

// decodeConfiguration decodes one configuration strictly and validates it,
// returning every problem. The configuration is returned even then, for its name.
func decodeConfiguration(obj map[string]any) (*ResourceInterpreterWebhookConfiguration, []error) {
	c := &ResourceInterpreterWebhookConfiguration{}
	js, err := json.Marshal(obj)
	if err != nil {
		return c, []error{err}
	}
	strict, err := kjson.UnmarshalStrict(js, c)
	if err != nil {
		return c, []error{err}
	}
	if len(strict) > 0 {
		return c, strict
	}
	var errs []error
	for _, e := range c.Validate() {
		errs = append(errs, e)
	}
	return c, errs
}
