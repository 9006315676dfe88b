package shard

import (
	"context"
	"time"
)

// balance hands shards over, every retry period until ctx ends, while
// this replica holds more than its share and other live members hold
// fewer than theirs than there are shards free to take.
func (m *Manager) balance(ctx context.Context) {
	t := time.NewTicker(m.o.retryPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		m.handOver()
	}
}

// handOver releases the shards this replica holds beyond its share that
// another member is short of.
func (m *Manager) handOver() {
	live := m.members.live()
	self := m.o.identity
	mine := share(m.n, live, self)
	m.mu.Lock()
	defer m.mu.Unlock()
	holds := map[string]int{}
	free := 0
	var held []int
	for k, s := range m.slots {
		if s.holding {
			held = append(held, k)
			holds[self]++
			continue
		}
		holder := ""
		if s.elector != nil {
			holder = s.elector.Leader()
		}
		if holder == "" || !contains(live, holder) {
			free++
			continue
		}
		holds[holder]++
	}
	excess := len(held) - mine
	if excess <= 0 {
		return
	}
	short := -free
	for _, id := range live {
		if id == self {
			continue
		}
		if d := share(m.n, live, id) - holds[id]; d > 0 {
			short += d
		}
	}
	give := min(excess, short)
	for i := 0; i < give; i++ {
		k := held[len(held)-1-i]
		m.o.log.Info("handing a shard over", "lease", m.Lease(k), "identity", self, "share", mine, "held", len(held))
		m.o.metrics.handedOver()
		m.slots[k].release()
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
