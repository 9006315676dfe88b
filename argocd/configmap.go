package argocd

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The keys of argocd-cm this package reads.
const (
	KeyCustomizations = "resource.customizations"
	prefixHealth      = "resource.customizations.health."
	prefixOpenLibs    = "resource.customizations.useOpenLibs."
	prefixActions     = "resource.customizations.actions."
)

// Override is a user's customization of a kind, or of the kinds a glob
// key matches, from argocd-cm.
type Override struct {
	Key     string // group/Kind, possibly a glob
	Health  *Script
	Actions *Actions
}

// overrideDoc is an entry of the resource.customizations map.
type overrideDoc struct {
	HealthLua         string `json:"health.lua"`
	HealthLuaOpenLibs bool   `json:"health.lua.useOpenLibs"`
	Actions           string `json:"actions"`
}

// actionsDoc is the YAML of an actions value.
type actionsDoc struct {
	DiscoveryLua string `json:"discovery.lua"`
	Definitions  []struct {
		Name      string `json:"name"`
		ActionLua string `json:"action.lua"`
	} `json:"definitions"`
	MergeBuiltinActions bool `json:"mergeBuiltinActions"`
}

// ReadConfigMap reads an argocd-cm ConfigMap from a YAML or JSON file and
// returns its overrides (see ParseConfigMap).
func ReadConfigMap(file string) ([]*Override, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(data, &cm); err != nil {
		return nil, fmt.Errorf("%s: not a ConfigMap: %w", file, err)
	}
	if cm.Kind != "ConfigMap" {
		return nil, fmt.Errorf("%s: kind is %q, not ConfigMap", file, cm.Kind)
	}
	return ParseConfigMap(file, cm.Data)
}

// ParseConfigMap returns the overrides of an argocd-cm ConfigMap's data,
// in key order: those of the resource.customizations map (whose keys may
// be globs), with the split keys resource.customizations.health.<group>_<Kind>,
// ...useOpenLibs.<group>_<Kind> and ...actions.<group>_<Kind> (the core
// group's kinds without "<group>_"; "all" for every kind) set over them.
// name says where the data came from, in the scripts' names and errors.
// The error lists every value that cannot be read.
func ParseConfigMap(name string, data map[string]string) ([]*Override, error) {
	byKey := map[string]*Override{}
	get := func(key string) *Override {
		o, ok := byKey[key]
		if !ok {
			o = &Override{Key: key}
			byKey[key] = o
		}
		return o
	}
	var errs []error
	if text, ok := data[KeyCustomizations]; ok {
		var docs map[string]overrideDoc
		if err := yaml.Unmarshal([]byte(text), &docs); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", name, KeyCustomizations, err))
		}
		for key, doc := range docs {
			where := fmt.Sprintf("%s: %s[%s]", name, KeyCustomizations, key)
			o := get(key)
			if doc.HealthLua != "" {
				o.Health = &Script{Name: where + ".health.lua", Source: doc.HealthLua, Role: RoleHealth, OpenLibs: doc.HealthLuaOpenLibs}
			}
			if doc.Actions != "" {
				a, err := parseActions(where+".actions", doc.Actions)
				errs = append(errs, err)
				o.Actions = a
			}
		}
	}
	openLibs := map[string]bool{}
	for _, k := range sortedKeys(data) {
		v := data[k]
		switch {
		case strings.HasPrefix(k, prefixHealth):
			get(splitKey(k[len(prefixHealth):])).Health = &Script{Name: name + ": " + k, Source: v, Role: RoleHealth}
		case strings.HasPrefix(k, prefixActions):
			a, err := parseActions(name+": "+k, v)
			errs = append(errs, err)
			get(splitKey(k[len(prefixActions):])).Actions = a
		case strings.HasPrefix(k, prefixOpenLibs):
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %q is not a boolean", name, k, v))
			}
			openLibs[splitKey(k[len(prefixOpenLibs):])] = b
		}
	}
	for key, b := range openLibs {
		if o, ok := byKey[key]; ok && o.Health != nil {
			o.Health.OpenLibs = b
		}
	}
	out := make([]*Override, 0, len(byKey))
	for _, k := range sortedKeys(byKey) {
		out = append(out, byKey[k])
	}
	return out, errors.Join(errs...)
}

// parseActions reads an actions value: discovery.lua, definitions (a list
// of name and action.lua) and mergeBuiltinActions.
func parseActions(name, text string) (*Actions, error) {
	var doc actionsDoc
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a := &Actions{ByName: map[string]*Script{}, MergeBuiltin: doc.MergeBuiltinActions}
	if doc.DiscoveryLua != "" {
		a.Discovery = &Script{Name: name + ".discovery.lua", Source: doc.DiscoveryLua, Role: RoleDiscovery}
	}
	for i, d := range doc.Definitions {
		if d.Name == "" {
			return nil, fmt.Errorf("%s: definitions[%d] has no name", name, i)
		}
		a.ByName[d.Name] = &Script{Name: fmt.Sprintf("%s.definitions[%s].action.lua", name, d.Name), Source: d.ActionLua, Role: RoleAction}
	}
	return a, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
