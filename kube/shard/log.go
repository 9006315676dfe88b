package shard

import (
	"context"
	"log/slog"
	"strings"
)

// gateQuiet is the shards' Electors' log handler: client-go logs every
// failed take of a Lease as an error, and the acquire gate's refusals
// (ErrAtShare, ErrOtherShards) are no errors but a replica holding its
// share while a shard waits for another, or waiting for the replicas of
// another number of shards to go (logged once by the members' reader);
// those lines go at debug level.
type gateQuiet struct{ slog.Handler }

func (h gateQuiet) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		refused := false
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" || a.Key == "error" {
				refused = strings.Contains(a.Value.String(), refusal)
				return false
			}
			return true
		})
		if refused {
			if !h.Enabled(ctx, slog.LevelDebug) {
				return nil
			}
			q := slog.NewRecord(r.Time, slog.LevelDebug, r.Message, r.PC)
			r.Attrs(func(a slog.Attr) bool { q.AddAttrs(a); return true })
			r = q
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h gateQuiet) WithAttrs(attrs []slog.Attr) slog.Handler {
	return gateQuiet{h.Handler.WithAttrs(attrs)}
}

func (h gateQuiet) WithGroup(name string) slog.Handler { return gateQuiet{h.Handler.WithGroup(name)} }
