package argocd

import (
	"path"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Key is how Argo CD names a kind: "group/Kind", or "Kind" for the core
// group.
func Key(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Group + "/" + gk.Kind
}

// splitKey turns the <group>_<Kind> suffix of an argocd-cm split key
// (resource.customizations.health.apps_Deployment) into a Key: the last
// "_" separates the group, which has none, from the kind; "all" stands
// for every kind.
func splitKey(suffix string) string {
	if suffix == "all" {
		return "*/*"
	}
	if i := strings.LastIndex(suffix, "_"); i >= 0 {
		return suffix[:i] + "/" + suffix[i+1:]
	}
	return suffix
}

// matches reports whether the glob pattern (a key holding "*", "?" or
// "[...]", where "*" does not cross "/") matches key. A malformed
// pattern matches nothing.
func matches(pattern, key string) bool {
	ok, err := path.Match(pattern, key)
	return err == nil && ok
}

// isGlob reports whether key is a pattern rather than a kind's key.
func isGlob(key string) bool { return strings.ContainsAny(key, "*?[") }
