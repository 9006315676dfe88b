//go:build deps

// Package deps pins the project's chosen dependencies in go.mod while the
// packages that use them are being written, so that parallel work never
// races on go.mod. It is never built; delete a line once real code imports it.
package deps

import (
	_ "github.com/evanphx/json-patch/v5"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
	_ "github.com/yuin/gopher-lua"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	_ "layeh.com/gopher-luar"
	_ "sigs.k8s.io/yaml"
)
