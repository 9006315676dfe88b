package builtin

import (
	"github.com/luainterp/luainterp/interpreter"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Service and Ingress: load-balancer status (docs/builtin.md §3.8, §3.9).

// reflectService reflects the load balancer of a LoadBalancer Service; any
// other Service, one whose type is not a string included, reflects nothing.
func reflectService(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	spec, _ := obj.Object["spec"].(map[string]any)
	if serviceType, _ := spec["type"].(string); serviceType != string(corev1.ServiceTypeLoadBalancer) {
		return nil, nil
	}
	status := &corev1.ServiceStatus{}
	found, err := decodeStatus(obj, status)
	if err != nil || !found {
		return nil, err
	}
	return rawJSON(corev1.ServiceStatus{LoadBalancer: status.LoadBalancer})
}

// aggregateService merges the members' load-balancer ingress of a
// LoadBalancer Service into a new status; other Services are left as they are.
var aggregateService = statusAggregation[corev1.Service, corev1.ServiceStatus]{
	status: func(service *corev1.Service) *corev1.ServiceStatus { return &service.Status },
	fold: func(service *corev1.Service, items []interpreter.AggregatedStatusItem) (corev1.ServiceStatus, error) {
		if service.Spec.Type != corev1.ServiceTypeLoadBalancer {
			return service.Status, nil
		}
		var entries []corev1.LoadBalancerIngress
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *corev1.ServiceStatus) {
			entries = append(entries, member.LoadBalancer.Ingress...)
		})
		return corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: mergeIngress(entries)}}, err
	},
}

// serviceHealthy: a Service that is not a LoadBalancer is healthy; a
// LoadBalancer one once it has an address.
func serviceHealthy(service *corev1.Service) bool {
	return service.Spec.Type != corev1.ServiceTypeLoadBalancer || hasAddress(service.Status.LoadBalancer.Ingress)
}

// aggregateIngress merges the members' load-balancer ingress into a new status.
var aggregateIngress = statusAggregation[networkingv1.Ingress, networkingv1.IngressStatus]{
	status: func(ingress *networkingv1.Ingress) *networkingv1.IngressStatus { return &ingress.Status },
	fold: func(_ *networkingv1.Ingress, items []interpreter.AggregatedStatusItem) (networkingv1.IngressStatus, error) {
		var entries []corev1.LoadBalancerIngress
		err := eachItem(items, func(_ interpreter.AggregatedStatusItem, member *networkingv1.IngressStatus) {
			entries = append(entries, fromIngressEntries(member.LoadBalancer.Ingress)...)
		})
		merged := toIngressEntries(mergeIngress(entries))
		return networkingv1.IngressStatus{LoadBalancer: networkingv1.IngressLoadBalancerStatus{Ingress: merged}}, err
	},
}

func ingressHealthy(ingress *networkingv1.Ingress) bool {
	return hasAddress(fromIngressEntries(ingress.Status.LoadBalancer.Ingress))
}

// fromIngressEntries converts Ingress load-balancer entries to Service
// ones (which have no ipMode), so both merge alike.
func fromIngressEntries(entries []networkingv1.IngressLoadBalancerIngress) []corev1.LoadBalancerIngress {
	var out []corev1.LoadBalancerIngress
	for _, e := range entries {
		c := corev1.LoadBalancerIngress{IP: e.IP, Hostname: e.Hostname}
		for _, p := range e.Ports {
			c.Ports = append(c.Ports, corev1.PortStatus{Port: p.Port, Protocol: p.Protocol, Error: p.Error})
		}
		out = append(out, c)
	}
	return out
}

func toIngressEntries(entries []corev1.LoadBalancerIngress) []networkingv1.IngressLoadBalancerIngress {
	var out []networkingv1.IngressLoadBalancerIngress
	for _, e := range entries {
		c := networkingv1.IngressLoadBalancerIngress{IP: e.IP, Hostname: e.Hostname}
		for _, p := range e.Ports {
			c.Ports = append(c.Ports, networkingv1.IngressPortStatus{Port: p.Port, Protocol: p.Protocol, Error: p.Error})
		}
		out = append(out, c)
	}
	return out
}
