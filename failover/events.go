package failover

import "fmt"

// Event reasons Karmada records on the binding and on its resource
// template.
const (
	// EventEvictSucceeded (Normal) is recorded for each task the graceful
	// eviction controller drops.
	EventEvictSucceeded = "EvictWorkloadFromClusterSucceed"
	// EventEvictFailed (Warning) is recorded for each evicted cluster when
	// writing the binding fails.
	EventEvictFailed = "EvictWorkloadFromClusterFailed"
)

// EvictSucceededMessage is the message of EventEvictSucceeded.
func EvictSucceededMessage(cluster string) string {
	return fmt.Sprintf("Evict from cluster %s succeed.", cluster)
}

// EvictFailedMessage is the message of EventEvictFailed.
func EvictFailedMessage(cluster string) string {
	return fmt.Sprintf("Evict from cluster %s failed.", cluster)
}
