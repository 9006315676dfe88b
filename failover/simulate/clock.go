package simulate

import (
	"math"
	"time"
)

// epoch is the simulated clock's origin.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// reconcileDelay is how long after its step's instant a pass runs.
const reconcileDelay = time.Millisecond

// clock is the simulated time of the passes.
type clock struct {
	elapsed time.Duration
	steps   int
}

// advance moves to the next step's pass and returns its instant.
func (c *clock) advance(seconds float64) time.Time {
	c.elapsed += seconds2duration(seconds)
	c.steps++
	return epoch.Add(c.elapsed + time.Duration(c.steps)*reconcileDelay)
}

func seconds2duration(s float64) time.Duration {
	return time.Duration(s * float64(time.Second))
}

// ageSeconds is how many whole seconds have passed from then to now.
func ageSeconds(now, then time.Time) int64 { return int64(now.Sub(then) / time.Second) }

// requeueSeconds rounds a requeue up to whole seconds.
func requeueSeconds(d time.Duration) int64 {
	return int64(math.Ceil(d.Seconds()))
}
