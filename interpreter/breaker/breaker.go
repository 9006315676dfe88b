package breaker

import (
	"context"
	"strconv"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// State is a breaker's state.
type State int

const (
	// Closed: calls pass.
	Closed State = iota
	// Open: ejected; calls are refused until the ejection time is over.
	Open
	// HalfOpen: the ejection time is over; the next call passes as the
	// probe, and the others are refused until the probe's outcome.
	HalfOpen
)

func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half-open"
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// Outcome is what a call tells of the health of what it called.
type Outcome int

const (
	// Success: it answered; the count of failures in a row starts again.
	Success Outcome = iota + 1
	// Failure: it failed in a way that counts (a 5xx, no connection, a
	// deadline, a memory budget).
	Failure
	// Ignored: the call tells nothing (its caller gave up, another limit
	// refused it).
	Ignored
)

// Breaker guards one webhook or hook. It is safe for concurrent use.
type Breaker struct {
	name   string
	config Config
	clock  clock.PassiveClock

	mu        sync.Mutex
	state     State
	failures  int                                // in a row, while closed
	ejections int                                // in a row: the multiplier of the next ejection time
	since     time.Time                          // when the breaker last closed or opened
	until     time.Time                          // while open: when the ejection ends
	probing   bool                               // while half-open: the probe is running
	ejected   int64                              // ejections in all
	refused   int64                              // calls refused while ejected
	running   map[uint64]context.CancelCauseFunc // calls of AllowContext let through while closed
	lastID    uint64
}

// Call is a call a breaker let through. Its Done must be called once with
// its outcome.
type Call struct {
	b      *Breaker
	probe  bool
	id     uint64                  // in b.running; 0 for none
	cancel context.CancelCauseFunc // of AllowContext's context
}

// Probe reports whether the call is the probe of a half-open breaker.
func (c Call) Probe() bool { return c.probe }

// Done records the call's outcome.
func (c Call) Done(o Outcome) {
	c.b.record(c, o)
	if c.cancel != nil {
		c.cancel(nil)
	}
}

// Name returns the name the breaker was made for.
func (b *Breaker) Name() string { return b.name }

// Allow lets a call through, or refuses it with an *EjectedError while the
// breaker is open or its probe runs.
func (b *Breaker) Allow() (Call, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.allow(b.clock.Now())
}

// AllowContext is Allow for a call that stops when its context does: the
// context it returns is also canceled, with an *EjectedError for cause,
// when the breaker ejects while the call has not ended. Calls let through
// before an ejection then end with it, rather than run (or wait for a Lua
// state) behind the calls that failed.
func (b *Breaker) AllowContext(ctx context.Context) (context.Context, Call, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, err := b.allow(b.clock.Now())
	if err != nil {
		return ctx, c, err
	}
	ctx, c.cancel = context.WithCancelCause(ctx)
	if !c.probe {
		if b.running == nil {
			b.running = map[uint64]context.CancelCauseFunc{}
		}
		b.lastID++
		c.id = b.lastID
		b.running[c.id] = c.cancel
	}
	return ctx, c, nil
}

func (b *Breaker) allow(now time.Time) (Call, error) {
	switch b.current(now) {
	case Closed:
		return Call{b: b}, nil
	case HalfOpen:
		if !b.probing {
			b.probing = true
			return Call{b: b, probe: true}, nil
		}
	}
	b.refused++
	return Call{}, b.ejectedError(now)
}

// ejectedError is the error of a call refused at now.
func (b *Breaker) ejectedError(now time.Time) *EjectedError {
	err := &EjectedError{Name: b.name, Ejections: b.ejections, Length: b.config.ejectionTime(b.ejections), Probing: b.probing}
	if b.state == Open {
		err.Left = b.until.Sub(now)
	}
	return err
}

// current returns the state at now, half-open once an ejection is over.
func (b *Breaker) current(now time.Time) State {
	if b.state == Open && !now.Before(b.until) {
		b.state = HalfOpen
	}
	return b.state
}

func (b *Breaker) record(c Call, o Outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.id != 0 {
		delete(b.running, c.id)
	}
	now := b.clock.Now()
	probe := c.probe
	switch {
	case o == Ignored:
		if probe {
			b.probing = false // the next call probes
		}
	case probe && o == Success:
		b.state, b.failures, b.probing, b.since = Closed, 0, false, now
	case probe:
		b.eject(now)
	case b.state != Closed:
		// A call let through before the ejection: the ejection stands.
	case o == Success:
		b.failures = 0
	default:
		b.failures++
		if b.failures >= b.config.ConsecutiveFailures {
			b.eject(now)
		}
	}
}

// eject opens the breaker for the ejection time of one more ejection in a
// row, after the count has gone down by one per Interval spent closed.
func (b *Breaker) eject(now time.Time) {
	if b.state == Closed {
		b.ejections = max(0, b.ejections-int(now.Sub(b.since)/b.config.Interval))
	}
	b.ejections++
	b.ejected++
	b.state, b.failures, b.probing, b.since = Open, 0, false, now
	b.until = now.Add(b.config.ejectionTime(b.ejections))
	if len(b.running) > 0 {
		err := b.ejectedError(now)
		for id, cancel := range b.running {
			cancel(err) // its context's functions run on goroutines of their own
			delete(b.running, id)
		}
	}
}

// Stats are a breaker's state and counts at one time.
type Stats struct {
	State State
	// Ejections is the count of ejections in a row the last or current
	// ejection's length was drawn from.
	Ejections int
	// Left is how long the current ejection lasts still (while open).
	Left time.Duration
	// Ejected counts every ejection; Refused every call refused while
	// ejected.
	Ejected, Refused int64
}

// Stats returns the breaker's state and counts now.
func (b *Breaker) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	s := Stats{State: b.current(now), Ejections: b.ejections, Ejected: b.ejected, Refused: b.refused}
	if s.State == Open {
		s.Left = b.until.Sub(now)
	}
	return s
}
