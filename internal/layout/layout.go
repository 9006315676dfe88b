// Package layout is the folder layout of a tree of customizations, which
// the bundled scripts and the test runner share: one folder per kind,
// <group>/<version>/<Kind>/, holding customizations.yaml and its test
// cases in testdata/*.yaml. It is its own package so that the bundled
// scripts need not link the test runner to read their own folders.
package layout

import "k8s.io/apimachinery/pkg/runtime/schema"

// The names that make a folder a suite.
const (
	CustomizationsFile = "customizations.yaml"
	TestdataDir        = "testdata"
)

// CRDsDir is the folder of a suite that holds the CustomResourceDefinitions
// its cases' objects validate against (`luainterp init --from-crd` records
// the CRD there).
const CRDsDir = "crds"

// CoreGroupDir is the folder name that stands for the core API group
// ("" in apiVersion v1).
const CoreGroupDir = "core"

// Group returns the API group a group folder stands for.
func Group(dir string) string {
	if dir == CoreGroupDir {
		return ""
	}
	return dir
}

// Kind returns the kind a <group>/<version>/<Kind> folder stands for.
func Kind(groupDir, versionDir, kindDir string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: Group(groupDir), Version: versionDir, Kind: kindDir}
}
