package customization_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// healthCustomization is a customization of name for widgets whose
// InterpretHealth returns healthy.
func healthCustomization(name, healthy string) string {
	return `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: ` + name + `
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return ` + healthy + `
        end
`
}

func TestMerge(t *testing.T) {
	parse := func(t *testing.T, file string, docs ...string) *customization.Set {
		t.Helper()
		data := ""
		for _, d := range docs {
			data += "---\n" + d
		}
		set, err := customization.Parse(file, []byte(data))
		require.NoError(t, err)
		return set
	}
	widget := schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}
	tests := []struct {
		name     string
		sets     func(t *testing.T) []*customization.Set
		names    []string // the merged customizations
		answers  string   // the one answering InterpretHealth
		warnings []string
	}{{
		name: "customizations of two sets apply in name order",
		sets: func(t *testing.T) []*customization.Set {
			return []*customization.Set{parse(t, "files.yaml", healthCustomization("b", "false")), parse(t, "api", healthCustomization("a", "true"))}
		},
		names:    []string{"a", "b"},
		answers:  "a",
		warnings: []string{`files.yaml:2: document 1 "b": healthInterpretation for example.io/v1, Kind=Widget is also defined by "a"; "a" is used (customizations apply in name order, the first wins)`},
	}, {
		name: "of two of one name the earlier set's is kept",
		sets: func(t *testing.T) []*customization.Set {
			return []*customization.Set{parse(t, "files.yaml", healthCustomization("a", "false")), parse(t, "api", healthCustomization("a", "true"))}
		},
		names:    []string{"a"},
		answers:  "a",
		warnings: []string{`api:2: document 1 "a": left out: a customization of this name is already loaded from files.yaml:2: document 1 "a"`},
	}, {
		name:  "nil and empty sets add nothing",
		sets:  func(*testing.T) []*customization.Set { return []*customization.Set{nil, {}} },
		names: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged := customization.Merge(tt.sets(t)...)
			require.NoError(t, merged.Err())
			var names []string
			for _, c := range merged.Customizations {
				names = append(names, c.Name)
			}
			assert.Equal(t, tt.names, names)
			var warnings []string
			for _, w := range merged.Warnings {
				warnings = append(warnings, w.String())
			}
			assert.Equal(t, tt.warnings, warnings)
			layer, err := customization.NewLayer(luavm.New(), merged)
			require.NoError(t, err)
			c, _, ok := layer.Hook(widget, interpreter.InterpretHealth)
			assert.Equal(t, tt.answers != "", ok)
			if ok {
				assert.Equal(t, tt.answers, c.Name)
			}
		})
	}
}
