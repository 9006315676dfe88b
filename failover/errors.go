package failover

import (
	"errors"
	"fmt"
)

// ErrStatusNotCollected is matched (errors.Is) when the state to preserve
// cannot be read because the evicted cluster has reported no status yet.
var ErrStatusNotCollected = errors.New("the application status has not yet been collected")

// ErrGracefulEvictionGate is matched when a task purges Gracefully while
// the GracefulEviction gate is off.
var ErrGracefulEvictionGate = errors.New("GracefulEviction featureGate must be enabled")

// ClusterError is the failure to build the eviction task of one cluster;
// it blocks the whole pass. Its message is Karmada's, unchanged (the
// reconcile error users know); Cluster names the cluster, and Unwrap gives
// the cause (a *preserve.RuleError for a failing rule).
type ClusterError struct {
	Cluster string
	Err     error
}

func (e *ClusterError) Error() string { return e.Err.Error() }

func (e *ClusterError) Unwrap() error { return e.Err }

// statusNotCollected is ErrStatusNotCollected with Karmada's message.
type statusNotCollected struct{ cluster string }

func (e *statusNotCollected) Error() string {
	return fmt.Sprintf("the application status has not yet been collected from Cluster(%s)", e.cluster)
}

func (e *statusNotCollected) Is(target error) bool { return target == ErrStatusNotCollected }

// gateOff is ErrGracefulEvictionGate with Karmada's message, naming the
// purge mode as written.
type gateOff struct{ mode string }

func (e *gateOff) Error() string {
	return fmt.Sprintf("GracefulEviction featureGate must be enabled when purgeMode is %s", e.mode)
}

func (e *gateOff) Is(target error) bool { return target == ErrGracefulEvictionGate }
