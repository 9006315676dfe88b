package binding

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestApportion(t *testing.T) {
	tests := []struct {
		name  string
		votes map[string]int64
		seats int32
		uid   string
		want  map[string]int32
	}{
		{"three parties", map[string]int64{"Alpha": 1200, "Beta": 900, "Gamma": 400}, 4, "", map[string]int32{"Alpha": 2, "Beta": 1, "Gamma": 1}},
		{"four parties", map[string]int64{"PartyA": 100000, "PartyB": 80000, "PartyC": 30000, "PartyD": 20000}, 8, "",
			map[string]int32{"PartyA": 3, "PartyB": 3, "PartyC": 1, "PartyD": 1}},
		{"one seat", map[string]int64{"A": 2, "B": 1}, 1, "", map[string]int32{"A": 1, "B": 0}},
		{"two seats, fewer seats wins the tie", map[string]int64{"A": 2, "B": 1}, 2, "", map[string]int32{"A": 1, "B": 1}},
		{"three seats", map[string]int64{"A": 2, "B": 1}, 3, "", map[string]int32{"A": 2, "B": 1}},
		{"thirteen seats", map[string]int64{"member1": 1, "member2": 2, "member3": 3}, 13, "", map[string]int32{"member1": 2, "member2": 4, "member3": 7}},
		{"even hash: smaller name wins", map[string]int64{"A": 1, "B": 1}, 5, "4858ca61-3ff8-4095-8267-f3d059d8074c", map[string]int32{"A": 3, "B": 2}},
		{"odd hash: larger name wins", map[string]int64{"A": 1, "B": 1}, 5, "d43fdeeb-d750-4e2b-bee3-64eb94534f4c", map[string]int32{"A": 2, "B": 3}},
		{"even split", map[string]int64{"cluster1": 5, "cluster2": 5}, 10, "", map[string]int32{"cluster1": 5, "cluster2": 5}},
		{"no votes, no seat", map[string]int64{"A": 3, "B": 0}, 4, "", map[string]int32{"A": 4, "B": 0}},
		{"nothing to give", map[string]int64{"A": 3}, 0, "", map[string]int32{"A": 0}},
		{"huge seat count", map[string]int64{"A": 1, "B": 1}, 2147483647, "", map[string]int32{"A": 1073741824, "B": 1073741823}},
		{"huge votes and seats", map[string]int64{"A": 1 << 40, "B": 3 << 40}, 2147483647, "", map[string]int32{"A": 536870912, "B": 1610612735}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Apportion(tt.votes, tt.seats, tt.uid))
		})
	}
}

// TestApportionLowerBounds checks that giving seats in bulk before the
// seat-by-seat loop changes no result, against the plain method, for small
// and for huge votes.
func TestApportionLowerBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		votes := map[string]int64{}
		huge := i%10 == 9 // votes whose product with the seats overflows int64
		for p := range 1 + rng.IntN(7) {
			votes[fmt.Sprintf("c%d", p)] = int64(rng.IntN(6))
			if huge {
				votes[fmt.Sprintf("c%d", p)] = rng.Int64N(1 << 56)
			}
		}
		seats := int32(100 + rng.IntN(400))
		if huge {
			seats = int32(1<<15 + rng.IntN(1<<14))
		}
		uid := []string{"", "d43fdeeb-d750-4e2b-bee3-64eb94534f4c"}[i%2]
		assert.Equal(t, plainWebster(votes, seats, uid), Apportion(votes, seats, uid), "votes %v seats %d", votes, seats)
	}
}

// plainWebster gives seats one at a time, scanning every party.
func plainWebster(votes map[string]int64, seats int32, uid string) map[string]int32 {
	a := &apportionment{largerNameWins: uid != "" && fnv32a(uid)%2 == 1}
	result := map[string]int32{}
	for name, v := range votes {
		result[name] = 0
		if v > 0 {
			a.parties = append(a.parties, party{name: name, votes: v})
		}
	}
	if len(a.parties) == 0 {
		return result
	}
	for range seats {
		best := 0
		for i := range a.parties {
			if a.Less(i, best) {
				best = i
			}
		}
		a.parties[best].seats++
	}
	for _, p := range a.parties {
		result[p.name] = int32(p.seats)
	}
	return result
}
