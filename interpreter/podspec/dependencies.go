package podspec

import (
	"slices"

	"github.com/luainterp/luainterp/interpreter"
)

// Dependencies lists the objects a pod spec refers to (docs/builtin.md §2.6).
func Dependencies(podSpec map[string]any, namespace string) ([]interpreter.DependentObjectReference, error) {
	var names referencedNames
	if err := names.collect(podSpec); err != nil {
		return nil, err
	}
	var refs []interpreter.DependentObjectReference
	for _, kind := range [...]struct {
		kind  string
		names []string
	}{
		{"ConfigMap", names.configMaps},
		{"Secret", names.secrets},
		{"ServiceAccount", names.serviceAccounts},
		{"PersistentVolumeClaim", names.claims},
	} {
		slices.Sort(kind.names)
		for i, name := range kind.names {
			if name == "" || (i > 0 && name == kind.names[i-1]) {
				continue
			}
			refs = append(refs, interpreter.DependentObjectReference{
				APIVersion: "v1", Kind: kind.kind, Namespace: namespace, Name: name,
			})
		}
	}
	return refs, nil
}

// referencedNames are the names a pod spec refers to, per kind, possibly
// empty or repeated.
type referencedNames struct {
	configMaps, secrets, serviceAccounts, claims []string
}

func (n *referencedNames) collect(podSpec map[string]any) error {
	pullSecrets, err := listAt(podSpec, "imagePullSecrets")
	if err != nil {
		return err
	}
	for i, ref := range pullSecrets {
		m, err := asMap(ref)
		if err != nil {
			return fieldError("imagePullSecrets", indexError(i, err))
		}
		name, err := stringAt(m, "name")
		if err != nil {
			return fieldError("imagePullSecrets", indexError(i, err))
		}
		n.secrets = append(n.secrets, name)
	}
	for _, key := range [...]string{"initContainers", "containers", "ephemeralContainers"} {
		containers, err := listAt(podSpec, key)
		if err != nil {
			return err
		}
		for i, c := range containers {
			if err := n.collectContainer(c); err != nil {
				return fieldError(key, indexError(i, err))
			}
		}
	}
	volumes, err := listAt(podSpec, "volumes")
	if err != nil {
		return err
	}
	for i, v := range volumes {
		if err := n.collectVolume(v); err != nil {
			return fieldError("volumes", indexError(i, err))
		}
	}
	account, err := stringAt(podSpec, "serviceAccountName")
	if err != nil {
		return err
	}
	if account != "default" {
		n.serviceAccounts = append(n.serviceAccounts, account)
	}
	return nil
}

// collectContainer collects the ConfigMaps and Secrets a container's
// environment refers to.
func (n *referencedNames) collectContainer(container any) error {
	c, err := asMap(container)
	if err != nil {
		return err
	}
	envFrom, err := listAt(c, "envFrom")
	if err != nil {
		return err
	}
	for i, source := range envFrom {
		if err := n.collectRefs(source, "configMapRef", "secretRef"); err != nil {
			return fieldError("envFrom", indexError(i, err))
		}
	}
	env, err := listAt(c, "env")
	if err != nil {
		return err
	}
	for i, v := range env {
		m, err := asMap(v)
		if err == nil {
			err = n.collectRefs(m["valueFrom"], "configMapKeyRef", "secretKeyRef")
			if err != nil {
				err = fieldError("valueFrom", err)
			}
		}
		if err != nil {
			return fieldError("env", indexError(i, err))
		}
	}
	return nil
}

// collectRefs collects source[configMapKey].name and source[secretKey].name.
func (n *referencedNames) collectRefs(source any, configMapKey, secretKey string) error {
	m, err := asMap(source)
	if err != nil || m == nil {
		return err
	}
	if m[configMapKey] != nil {
		name, err := nameAt(m, configMapKey)
		if err != nil {
			return err
		}
		n.configMaps = append(n.configMaps, name)
	}
	if m[secretKey] != nil {
		name, err := nameAt(m, secretKey)
		if err != nil {
			return err
		}
		n.secrets = append(n.secrets, name)
	}
	return nil
}
