package binding

import "container/heap"

// Apportion divides seats between parties in proportion to their votes by
// the Webster / Sainte-Laguë method, as Karmada divides a Job's
// completions between clusters: each seat goes to the party with the
// largest votes/(2*seats+1), compared as float64. Ties go to the party with
// fewer seats, then by name: the lexicographically larger name wins when
// the 32-bit FNV-1a hash of uid is odd, the smaller one when it is even or
// uid is empty. Parties without votes get no seat. Every party is in the
// result, possibly with 0 seats.
func Apportion(votes map[string]int64, seats int32, uid string) map[string]int32 {
	result := make(map[string]int32, len(votes))
	a := &apportionment{largerNameWins: uid != "" && fnv32a(uid)%2 == 1}
	var total int64
	for name, v := range votes {
		result[name] = 0
		if v > 0 {
			a.parties = append(a.parties, party{name: name, votes: v})
			total += v
		}
	}
	if total == 0 || seats <= 0 {
		return result
	}
	remaining := int64(seats) - a.giveLowerBounds(int64(seats), total)
	heap.Init(a)
	for ; remaining > 0; remaining-- {
		a.parties[0].seats++
		heap.Fix(a, 0)
	}
	for _, p := range a.parties {
		result[p.name] = int32(p.seats)
	}
	return result
}

// giveLowerBounds gives each party, before the seat-by-seat loop, seats it
// is certain to end with, so that a huge number of seats costs no more
// than a few per party. Webster's result is within n/2+1/2 of the exact
// quota, so quota-n/2-3 seats are safely below it, and every one of them
// was won with a quotient strictly above the last seat's, leaving the
// tie-breaking untouched. The quota is worked out in float64, whose error
// at these sizes is far below a seat, since seats*votes overflows int64
// for votes past 2^32. It returns the number of seats given.
func (a *apportionment) giveLowerBounds(seats, total int64) int64 {
	n := int64(len(a.parties))
	if seats <= 8*n+64 {
		return 0
	}
	var given int64
	for i := range a.parties {
		p := &a.parties[i]
		quota := float64(seats) * (float64(p.votes) / float64(total))
		p.seats = max(0, int64(quota)-n/2-3)
		given += p.seats
	}
	return given
}

type party struct {
	name  string
	votes int64
	seats int64
}

// apportionment is a max-heap of parties: the root is the party the next
// seat goes to.
type apportionment struct {
	parties        []party
	largerNameWins bool
}

func (a *apportionment) Len() int { return len(a.parties) }

func (a *apportionment) Less(i, j int) bool {
	p, q := &a.parties[i], &a.parties[j]
	pq := float64(p.votes) / float64(2*p.seats+1)
	qq := float64(q.votes) / float64(2*q.seats+1)
	switch {
	case pq != qq:
		return pq > qq
	case p.seats != q.seats:
		return p.seats < q.seats
	case a.largerNameWins:
		return p.name > q.name
	}
	return p.name < q.name
}

func (a *apportionment) Swap(i, j int) { a.parties[i], a.parties[j] = a.parties[j], a.parties[i] }
func (a *apportionment) Push(x any)    { a.parties = append(a.parties, x.(party)) }
func (a *apportionment) Pop() any {
	last := a.parties[len(a.parties)-1]
	a.parties = a.parties[:len(a.parties)-1]
	return last
}
