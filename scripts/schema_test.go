package scripts_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/internal/crdschema"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
)

// crdDir holds the CRDs of the bundled kinds, from the repository root.
const crdDir = "testdata/crds"

// TestSchemas checks every object of every bundled case against its
// CRD's schema for that version, as the API server would on create: the
// inputs, each member's reflected status (against the status schema),
// the expected outputs, and the outputs the scripts produce. Every
// bundled kind must have a CRD in testdata/crds.
func TestSchemas(t *testing.T) {
	schemas, err := crdschema.Load(os.DirFS(".."), crdDir)
	require.NoError(t, err)
	layer := scripts.NewLayer(luavm.New())
	for _, suite := range loadSuites(t, layer) {
		t.Run(suite.Name, func(t *testing.T) {
			gvk := kindOf(suite.Name)
			require.True(t, schemas.Has(gvk), "no CRD in %s serves %s %s", crdDir, gvk.GroupVersion(), gvk.Kind)
			for _, r := range suite.Run(context.Background(), nil, nil) {
				t.Run(r.Case.Operation.String()+"/"+r.Case.Name, func(t *testing.T) {
					objs, err := testsuite.SchemaObjects(r)
					require.NoError(t, err)
					for _, o := range objs {
						assert.Empty(t, o.Validate(schemas, gvk), "%s: %s is not valid for the CRD (%s)", r.Case.Source, o.Name, schemas.File(gvk))
					}
				})
			}
		})
	}
}
