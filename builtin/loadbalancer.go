package builtin

import (
	"cmp"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// mergeIngress merges load-balancer ingress entries reported by several
// clusters (docs/builtin.md §2.8): entries with the same hostname, ip and ipMode
// become one whose ports are the union of theirs; ports and entries come
// out sorted. Nil when there are no entries.
func mergeIngress(entries []corev1.LoadBalancerIngress) []corev1.LoadBalancerIngress {
	var merged []corev1.LoadBalancerIngress
	for _, e := range entries {
		i := slices.IndexFunc(merged, func(m corev1.LoadBalancerIngress) bool {
			return m.Hostname == e.Hostname && m.IP == e.IP && equalPtr(m.IPMode, e.IPMode)
		})
		if i < 0 {
			merged = append(merged, corev1.LoadBalancerIngress{Hostname: e.Hostname, IP: e.IP, IPMode: e.IPMode})
			i = len(merged) - 1
		}
		for _, p := range e.Ports {
			if !slices.ContainsFunc(merged[i].Ports, func(q corev1.PortStatus) bool { return samePort(p, q) }) {
				merged[i].Ports = append(merged[i].Ports, p)
			}
		}
	}
	for i := range merged {
		slices.SortFunc(merged[i].Ports, comparePorts)
	}
	slices.SortFunc(merged, compareIngress)
	return merged
}

func samePort(a, b corev1.PortStatus) bool {
	return a.Port == b.Port && a.Protocol == b.Protocol && equalPtr(a.Error, b.Error)
}

// comparePorts orders by port, protocol, then no error before an error,
// then error.
func comparePorts(a, b corev1.PortStatus) int {
	return cmp.Or(
		cmp.Compare(a.Port, b.Port),
		cmp.Compare(a.Protocol, b.Protocol),
		comparePtr(a.Error, b.Error, false),
	)
}

// compareIngress orders entries with a hostname first (by hostname), then
// by ip, then those with an ipMode first (by ipMode).
func compareIngress(a, b corev1.LoadBalancerIngress) int {
	return cmp.Or(
		compareNonEmptyFirst(a.Hostname, b.Hostname),
		cmp.Compare(a.IP, b.IP),
		comparePtr(a.IPMode, b.IPMode, true),
	)
}

func compareNonEmptyFirst(a, b string) int {
	if (a == "") != (b == "") {
		if a == "" {
			return 1
		}
		return -1
	}
	return cmp.Compare(a, b)
}

// comparePtr orders nil pointers before (or, with setFirst, after) set
// ones, and set ones by value.
func comparePtr[T cmp.Ordered](a, b *T, setFirst bool) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil || b == nil:
		if (a == nil) == setFirst {
			return 1
		}
		return -1
	}
	return cmp.Compare(*a, *b)
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// hasAddress reports whether some entry has a hostname or an ip.
func hasAddress(entries []corev1.LoadBalancerIngress) bool {
	return slices.ContainsFunc(entries, func(e corev1.LoadBalancerIngress) bool { return e.Hostname != "" || e.IP != "" })
}
