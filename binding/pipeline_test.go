package binding_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// TestPipelineConcurrentRuns runs one Pipeline, one template and one
// override Set from several goroutines (run with -race): every run gives
// the Works of a run alone, byte for byte, and leaves the template as it
// was.
func TestPipelineConcurrentRuns(t *testing.T) {
	p := binding.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	in := benchInput(t, 6)
	template := in.Template.DeepCopy()
	want, err := p.Run(context.Background(), in)
	require.NoError(t, err)
	require.NoError(t, want.Err())
	var wg sync.WaitGroup
	results := make([]*binding.Result, 4)
	for i := range results {
		wg.Go(func() {
			results[i], _ = p.Run(context.Background(), in)
		})
	}
	wg.Wait()
	for _, got := range results {
		require.NotNil(t, got)
		require.Len(t, got.Clusters, len(want.Clusters))
		for i, c := range got.Clusters {
			require.NoError(t, c.Err)
			assert.Equal(t, want.Clusters[i].Work.Annotations, c.Work.Annotations)
			assert.Equal(t, string(want.Clusters[i].Work.Spec.Workload.Manifests[0].Raw), string(c.Work.Spec.Workload.Manifests[0].Raw))
		}
	}
	assert.Equal(t, template.Object, in.Template.Object)
}
