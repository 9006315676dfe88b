package podspec

// secretVolumeSources are the volume sources that can name a Secret, in the
// order they are tried: only the first source a volume has is read, as
// Kubernetes' own pod secret visitor does.
var secretVolumeSources = [...]struct {
	source string // the volume source field
	field  string // the field of the source holding the name
	ref    bool   // whether field is an object reference ({name}) rather than a name
}{
	{"azureFile", "secretName", false},
	{"cephfs", "secretRef", true},
	{"cinder", "secretRef", true},
	{"flexVolume", "secretRef", true},
	{"projected", "", false},
	{"rbd", "secretRef", true},
	{"secret", "secretName", false},
	{"scaleIO", "secretRef", true},
	{"iscsi", "secretRef", true},
	{"storageos", "secretRef", true},
	{"csi", "nodePublishSecretRef", true},
}

// collectVolume collects the ConfigMaps, Secrets and PersistentVolumeClaims
// a volume refers to.
func (n *referencedNames) collectVolume(volume any) error {
	v, err := asMap(volume)
	if err != nil {
		return err
	}
	projected, err := n.collectProjected(v)
	if err != nil {
		return fieldError("projected", err)
	}
	if projected == nil && v["configMap"] != nil {
		name, err := nameAt(v, "configMap")
		if err != nil {
			return err
		}
		n.configMaps = append(n.configMaps, name)
	}
	if err := n.collectSecretVolume(v); err != nil {
		return err
	}
	claim, err := mapAt(v, "persistentVolumeClaim")
	if err != nil || claim == nil {
		return err
	}
	name, err := stringAt(claim, "claimName")
	if err != nil {
		return fieldError("persistentVolumeClaim", err)
	}
	n.claims = append(n.claims, name)
	return nil
}

// collectProjected collects the ConfigMaps of a projected volume and returns
// the projected source, nil when the volume is not projected. Its Secrets
// are collected with the other secret sources.
func (n *referencedNames) collectProjected(v map[string]any) (map[string]any, error) {
	projected, err := asMap(v["projected"])
	if err != nil || projected == nil {
		return nil, err
	}
	return projected, eachProjection(projected, "configMap", func(name string) {
		n.configMaps = append(n.configMaps, name)
	})
}

// eachProjection calls visit with the name of every projected source of kind key.
func eachProjection(projected map[string]any, key string, visit func(name string)) error {
	sources, err := listAt(projected, "sources")
	if err != nil {
		return err
	}
	for i, source := range sources {
		m, err := asMap(source)
		if err == nil && m[key] != nil {
			var name string
			if name, err = nameAt(m, key); err == nil {
				visit(name)
			}
		}
		if err != nil {
			return fieldError("sources", indexError(i, err))
		}
	}
	return nil
}

// collectSecretVolume collects the Secrets of the first secret-bearing
// source the volume has.
func (n *referencedNames) collectSecretVolume(v map[string]any) error {
	for _, s := range secretVolumeSources {
		if v[s.source] == nil {
			continue
		}
		source, err := mapAt(v, s.source)
		if err != nil {
			return err
		}
		switch {
		case s.source == "projected":
			err = eachProjection(source, "secret", func(name string) { n.secrets = append(n.secrets, name) })
		case s.ref:
			var name string
			name, err = nameAt(source, s.field)
			n.secrets = append(n.secrets, name)
		default:
			var name string
			name, err = stringAt(source, s.field)
			n.secrets = append(n.secrets, name)
		}
		if err != nil {
			return fieldError(s.source, err)
		}
		return nil
	}
	return nil
}
