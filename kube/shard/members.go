package shard

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// MembersLabel labels the member Leases with the shards' Lease name.
const MembersLabel = "shard.luainterp.io/members-of"

// ShardsAnnotation on a member Lease is its replica's number of shards.
const ShardsAnnotation = "shard.luainterp.io/shards"

// members keeps this replica's member Lease renewed and tells which
// members are live: those whose Lease this replica saw renewed within the
// lease duration (by its own clock, as client-go's election judges).
type members struct {
	client    kubernetes.Interface
	namespace string
	name      string
	n         int
	o         options

	mu   sync.Mutex
	seen map[string]*observed // by Lease name
}

type observed struct {
	identity string
	shards   string    // its ShardsAnnotation
	created  time.Time // its member Lease's acquireTime: when it joined, to the microsecond
	version  string
	at       time.Time // when version was first seen
}

func newMembers(client kubernetes.Interface, namespace, name string, n int, o options) *members {
	return &members{client: client, namespace: namespace, name: name, n: n, o: o, seen: map[string]*observed{}}
}

// ours reports whether a member Lease's ShardsAnnotation is this
// replica's number of shards.
func (ms *members) ours(shards string) bool { return shards == strconv.Itoa(ms.n) }

func (ms *members) leaseName(identity string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(identity))
	return fmt.Sprintf("%s-member-%016x", ms.name, h.Sum64())
}

// run renews this member's Lease and reads the others' every retry
// period until ctx ends, starting one period after the round Run makes
// before any shard is taken.
func (ms *members) run(ctx context.Context, self string) {
	t := time.NewTicker(ms.o.retryPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ms.round(ctx, self)
	}
}

// round renews this member's Lease and reads the others', each request
// within the renew deadline (a request that hangs must not stop the
// members from being counted).
func (ms *members) round(ctx context.Context, self string) {
	rctx, cancel := context.WithTimeout(ctx, ms.o.renewDeadline)
	defer cancel()
	if err := ms.renew(rctx, self); err != nil && ctx.Err() == nil {
		ms.o.log.Warn("shards: renewing the member lease", "identity", self, "error", err)
	}
	if err := ms.read(rctx, self); err != nil && ctx.Err() == nil {
		ms.o.log.Warn("shards: reading the member leases", "error", err)
	}
}

func (ms *members) renew(ctx context.Context, self string) error {
	leases := ms.client.CoordinationV1().Leases(ms.namespace)
	now := metav1.NewMicroTime(time.Now())
	l, err := leases.Get(ctx, ms.leaseName(self), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{
			Name: ms.leaseName(self), Namespace: ms.namespace,
			Labels:      map[string]string{MembersLabel: ms.name},
			Annotations: map[string]string{ShardsAnnotation: strconv.Itoa(ms.n)},
		}, Spec: coordinationv1.LeaseSpec{
			HolderIdentity: ptr.To(self), LeaseDurationSeconds: ptr.To(int32(ms.o.leaseDuration / time.Second)),
			AcquireTime: &now, RenewTime: &now,
		}}
		_, err = leases.Create(ctx, l, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	l.Spec.HolderIdentity, l.Spec.RenewTime = ptr.To(self), &now
	_, err = leases.Update(ctx, l, metav1.UpdateOptions{})
	return err
}

// read lists the member Leases, and deletes those not renewed for three
// lease durations.
func (ms *members) read(ctx context.Context, self string) error {
	leases := ms.client.CoordinationV1().Leases(ms.namespace)
	list, err := leases.List(ctx, metav1.ListOptions{LabelSelector: MembersLabel + "=" + ms.name})
	if err != nil {
		return err
	}
	now := time.Now()
	ms.mu.Lock()
	defer ms.mu.Unlock()
	names := map[string]bool{}
	for _, l := range list.Items {
		names[l.Name] = true
		if l.Spec.HolderIdentity == nil {
			continue
		}
		o := ms.seen[l.Name]
		if o == nil || o.version != l.ResourceVersion {
			ms.seen[l.Name] = &observed{identity: *l.Spec.HolderIdentity, shards: l.Annotations[ShardsAnnotation],
				created: joined(l), version: l.ResourceVersion, at: now}
			if n := l.Annotations[ShardsAnnotation]; !ms.ours(n) && (o == nil || o.version == "") {
				ms.o.log.Error("shards: a member runs with another number of shards; every replica must run with the same --shards (the later to join waits for the earlier to go)",
					"member", *l.Spec.HolderIdentity, "its", n, "ours", ms.n)
			}
			continue
		}
		if *l.Spec.HolderIdentity != self && now.Sub(o.at) > 3*ms.o.leaseDuration {
			rv := l.ResourceVersion
			err := leases.Delete(ctx, l.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
			if err == nil {
				ms.o.log.Info("shards: deleted the lease of a member gone", "member", o.identity)
			}
		}
	}
	for name := range ms.seen {
		if !names[name] {
			delete(ms.seen, name)
		}
	}
	return nil
}

// joined is when the member of l joined: its acquireTime, set when it
// created l and never changed (creationTimestamp has whole seconds).
func joined(l coordinationv1.Lease) time.Time {
	if l.Spec.AcquireTime == nil {
		return l.CreationTimestamp.Time
	}
	return l.Spec.AcquireTime.Time
}

// live returns the identities of the live members that run with this
// replica's number of shards, sorted; this replica among them.
func (ms *members) live() []string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	now := time.Now()
	ids := []string{ms.o.identity}
	for _, o := range ms.seen {
		if now.Sub(o.at) < ms.o.leaseDuration && o.identity != ms.o.identity && ms.ours(o.shards) {
			ids = append(ids, o.identity)
		}
	}
	return slices.Sorted(slices.Values(ids))
}

// elder returns a live member that runs with another number of shards
// and joined before this replica (its member Lease is older), "" when
// there is none. Shards of different numbers overlap: while such a member
// lives, this replica takes no shard, so that the replicas of the
// number that ran first keep the bindings until the last of them is gone
// (a rolling update changing --shards), and never two at once.
func (ms *members) elder(self string) string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	mine := ms.seen[ms.leaseName(self)]
	if mine == nil {
		return "?" // not listed yet: this replica does not know its age
	}
	now := time.Now()
	for _, o := range ms.seen {
		if now.Sub(o.at) >= ms.o.leaseDuration || ms.ours(o.shards) {
			continue
		}
		if o.created.Before(mine.created) || o.created.Equal(mine.created) && o.identity < self {
			return o.identity
		}
	}
	return ""
}

// leave deletes this member's Lease, so that the others count it out at
// once.
func (ms *members) leave(ctx context.Context, self string) {
	ctx, cancel := context.WithTimeout(ctx, ms.o.renewDeadline)
	defer cancel()
	err := ms.client.CoordinationV1().Leases(ms.namespace).Delete(ctx, ms.leaseName(self), metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		ms.o.log.Warn("shards: deleting the member lease", "identity", self, "error", err)
	}
}
