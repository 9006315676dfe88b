package luavm

import "context"

// pool keeps idle states for reuse and bounds how many exist: a call takes
// an idle state, or creates one while fewer than the bound exist, or waits.
type pool struct {
	cfg   *config
	idle  chan *state
	slots chan struct{} // one token per existing state
}

func newPool(cfg *config) *pool {
	return &pool{cfg: cfg, idle: make(chan *state, cfg.maxStates), slots: make(chan struct{}, cfg.maxStates)}
}

func (p *pool) acquire(ctx context.Context) (*state, error) {
	select {
	case st := <-p.idle:
		return st, nil
	default:
	}
	select {
	case st := <-p.idle:
		return st, nil
	case p.slots <- struct{}{}:
		return newState(p.cfg), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// release returns st to the pool, or closes it when broken is set (a call
// that was interrupted may have left it inconsistent).
func (p *pool) release(st *state, broken bool) {
	if broken {
		st.L.Close()
		<-p.slots
		return
	}
	p.idle <- st
}
