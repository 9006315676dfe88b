package testsuite

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/luainterp/luainterp/internal/layout"
	"github.com/luainterp/luainterp/interpreter/customization"
)

// versionDir matches the version folder of a <group>/<version>/<Kind> tree.
var versionDir = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// CheckPath checks that a suite folder laid out as <group>/<version>/<Kind>
// (a folder whose parent's name is a Kubernetes version such as v1 or
// v1alpha1) holds customizations targeting that group, version and kind;
// the core group's folder is named CoreGroupDir. It returns nil for a
// folder laid out otherwise.
func CheckPath(dir string, set *customization.Set) error {
	groupDir, versionDir, kindDir, err := layoutDirs(dir)
	if err != nil || versionDir == "" {
		return err
	}
	group := layout.Group(groupDir)
	var errs []error
	for _, c := range set.Customizations {
		var differ []string
		for _, part := range []struct{ name, target, path string }{
			{"group", c.Target.Group, group},
			{"version", c.Target.Version, versionDir},
			{"kind", c.Target.Kind, kindDir},
		} {
			if part.target != part.path {
				differ = append(differ, fmt.Sprintf("%s %s, the folder %s", part.name, orNone(part.target), orNone(part.path)))
			}
		}
		if differ != nil {
			errs = append(errs, &customization.Error{Position: c.Position, Field: "spec.target",
				Err: fmt.Errorf("does not agree with the folder %s/%s/%s: the target has %s",
					groupDir, versionDir, kindDir, strings.Join(differ, "; "))})
		}
	}
	return errors.Join(errs...)
}

// layoutDirs returns the group, version and kind folders of a suite folder
// laid out as <group>/<version>/<Kind> (a folder whose parent's name is a
// Kubernetes version), or "" for each when it is laid out otherwise.
func layoutDirs(dir string) (group, version, kind string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", "", err
	}
	kind, version = filepath.Base(abs), filepath.Base(filepath.Dir(abs))
	group = filepath.Base(filepath.Dir(filepath.Dir(abs)))
	if !versionDir.MatchString(version) || group == string(filepath.Separator) {
		return "", "", "", nil
	}
	return group, version, kind, nil
}

func orNone(s string) string {
	if s == "" {
		return `"" (the core group, folder ` + CoreGroupDir + ")"
	}
	return s
}
