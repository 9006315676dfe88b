// Package shard cuts a controller's bindings into shards by hash range
// and lets several replicas share them, each shard owned through a Lease
// of its own: the active-active form of kube/leader's single leader.
//
// # Ranges
//
// A binding's shard is drawn from the 64-bit FNV-1a hash of its uid, the
// hash the API server's sharded list and watch (KEP-5866,
// ListOptions.ShardSelector, feature gate ShardedListAndWatch) computes.
// The hash space is cut into 256 buckets (its top byte) and --shards N
// into N runs of whole buckets (N ≤ 256): so one shard is one hash range
// for the API server (Set.Selector) and a handful of label values for the
// Works (BucketLabel, Set.LabelSelector), and the label a Work carries
// stays right whatever N is.
//
// The uid and not the namespace: the uid spreads the bindings of any
// fleet evenly over the shards, where a namespace hash puts a whole
// namespace in one shard (a fleet whose bindings sit in a few large
// namespaces would land on a few replicas, and one namespace could never
// be shared). Hashing the namespace would let a replica list only the
// templates of its shards too, since a ResourceBinding's template lives
// in its namespace; with the uid each replica watches every template of
// the kinds its bindings name, and caches only those its bindings point
// at (kube/controller; docs/sharding.md measures it).
// The uid never changes, so a binding never moves between shards; and a
// replica filters on its side as well (Set.Owns), so that an API server
// without the gate, which ignores the selector, costs traffic and not
// correctness.
//
// # Ownership
//
// Manager runs, in one replica, a kube/leader Elector for every shard's
// Lease (<name>-shard-<k>, in the namespace of the single leader's) and a
// member Lease of its own (<name>-member-<hash of identity>) that says it
// is alive. Every replica stands by on every shard it does not hold, so a
// shard whose holder dies is taken as soon as its Lease expires; an
// acquire gate (leader.WithAcquireGate) lets a replica take a shard only
// while it holds fewer than its share (N over the live members, the first
// members by identity taking one more when it does not divide). A
// replica holding more than its share while another holds fewer hands
// shards over: it stops its controller, starts it again without them, and
// only then releases their Leases (stop, then release), so no binding is
// reconciled by two replicas at once.
//
// The function Manager.Run is given runs with the set of shards held; it
// is stopped and started again with the new set whenever the set changes
// (a short settle time gathers changes that come together). Its fence
// (Fence) passes only while every shard of its set passes the Elector's
// Fence: a replica paused past a shard's lease writes nothing for it
// when it resumes.
//
// Metrics (Metrics): luainterp_controller_shards_held,
// luainterp_controller_shard_handovers_total{direction},
// luainterp_controller_shard_info{shard,range,holder} and the kube/leader
// metrics of every shard's Lease.
package shard
