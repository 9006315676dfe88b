package leader_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/kube/leader"
)

// TestFence covers when a candidate may write: only while its function
// runs and its last renewal is younger than the lease duration; a leader
// that finds its renewal older (it was paused) stops at once.
func TestFence(t *testing.T) {
	client := kubernetes.NewForConfigOrDie(env.Config(t))
	e, err := leader.New(client, namespace, "fence", leader.WithIdentity("fence-a"), leader.WithLeaseDuration(leaseDuration),
		leader.WithRenewDeadline(renewDeadline), leader.WithRetryPeriod(retryPeriod))
	require.NoError(t, err)
	require.ErrorIs(t, e.Fence(), leader.ErrNotLeading, "a candidate that has not run may write")
	assert.EqualError(t, e.Fence(), "lease default/fence: not leading")

	var whileLeading, afterPause error
	stopped := make(chan time.Duration, 1)
	err = e.Run(context.Background(), func(ctx context.Context) error {
		whileLeading = e.Fence()
		time.Sleep(2 * retryPeriod) // renewals go on
		require.NoError(t, e.Fence(), "a leader that renews may not write")
		leader.Pause(e, 10*leaseDuration)
		afterPause = e.Fence()
		paused := time.Now()
		<-ctx.Done()
		stopped <- time.Since(paused)
		return nil
	})
	require.ErrorIs(t, err, leader.ErrLeaseLost)
	assert.NoError(t, whileLeading)
	require.ErrorIs(t, afterPause, leader.ErrNotLeading)
	assert.Regexp(t, `^lease default/fence: not leading: last renewed 3\d\.\d+s ago, not within its duration 3s$`, afterPause.Error())
	// The refused write ends the function's context at once, though
	// client-go goes on renewing.
	assert.Less(t, <-stopped, retryPeriod)
	require.ErrorIs(t, e.Fence(), leader.ErrNotLeading, "a candidate whose function returned may write")
}
