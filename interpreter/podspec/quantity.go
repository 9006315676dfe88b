package podspec

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/luainterp/luainterp/internal/quantity"
)

// parseQuantity reads a quantity given as a string, a whole number or a
// float64 (a Lua number), as a JSON decoder of resource.Quantity would.
func parseQuantity(v any) (resource.Quantity, error) {
	switch v := v.(type) {
	case string:
		return quantity.Parse(strings.TrimSpace(v))
	case int64:
		return *resource.NewQuantity(v, resource.DecimalSI), nil
	case int:
		return *resource.NewQuantity(int64(v), resource.DecimalSI), nil
	case int32:
		return *resource.NewQuantity(int64(v), resource.DecimalSI), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return resource.Quantity{}, fmt.Errorf("quantity %v is not a finite number", v)
		}
		text, err := json.Marshal(v) // the number as a JSON decoder of Quantity sees it
		if err != nil {
			return resource.Quantity{}, err
		}
		return quantity.Parse(string(text))
	case nil:
		return resource.Quantity{}, nil
	}
	return resource.Quantity{}, typeError("a quantity (string or number)", v)
}

// account is a running resource total in accounting units: millicores for
// cpu, whole units for everything else.
type account struct {
	milliCPU, memory, ephemeralStorage, pods int64
	scalars                                  map[string]*int64
}

// merge folds one quantity of resource name into the account, rounded up
// to accounting units: it adds it (app containers, overhead) or raises the
// total to it (init containers). Names not accounted for are ignored.
func (a *account) merge(name string, q *resource.Quantity, raise bool) {
	slot := a.slot(name)
	if slot == nil {
		return
	}
	v := q.Value()
	if name == string(corev1.ResourceCPU) {
		v = q.MilliValue()
	}
	if !raise {
		*slot += v
	} else if v > *slot {
		*slot = v
	}
}

// slot returns the total of resource name, nil when name is not accounted for.
func (a *account) slot(name string) *int64 {
	switch name {
	case string(corev1.ResourceCPU):
		return &a.milliCPU
	case string(corev1.ResourceMemory):
		return &a.memory
	case string(corev1.ResourceEphemeralStorage):
		return &a.ephemeralStorage
	case string(corev1.ResourcePods):
		return &a.pods
	}
	if !isScalarResourceName(name) {
		return nil
	}
	if a.scalars == nil {
		a.scalars = make(map[string]*int64)
	}
	slot := a.scalars[name]
	if slot == nil {
		slot = new(int64)
		a.scalars[name] = slot
	}
	return slot
}

// resourceList returns the positive totals in their canonical formats, nil
// when none is positive.
func (a *account) resourceList() corev1.ResourceList {
	var list corev1.ResourceList
	set := func(name string, q *resource.Quantity) {
		if list == nil {
			list = make(corev1.ResourceList, 4+len(a.scalars))
		}
		list[corev1.ResourceName(name)] = *q
	}
	if a.milliCPU > 0 {
		set(string(corev1.ResourceCPU), resource.NewMilliQuantity(a.milliCPU, resource.DecimalSI))
	}
	if a.memory > 0 {
		set(string(corev1.ResourceMemory), resource.NewQuantity(a.memory, resource.BinarySI))
	}
	if a.ephemeralStorage > 0 {
		set(string(corev1.ResourceEphemeralStorage), resource.NewQuantity(a.ephemeralStorage, resource.BinarySI))
	}
	if a.pods > 0 {
		set(string(corev1.ResourcePods), resource.NewQuantity(a.pods, resource.DecimalSI))
	}
	for name, v := range a.scalars {
		if *v <= 0 {
			continue
		}
		format := resource.DecimalSI
		if strings.HasPrefix(name, corev1.ResourceHugePagesPrefix) {
			format = resource.BinarySI
		}
		set(name, resource.NewQuantity(*v, format))
	}
	return list
}

// isScalarResourceName reports whether a resource name other than cpu,
// memory, ephemeral-storage and pods is accounted for: huge pages,
// attachable volumes, names in the kubernetes.io domain and extended
// resources.
func isScalarResourceName(name string) bool {
	return strings.HasPrefix(name, corev1.ResourceHugePagesPrefix) ||
		strings.HasPrefix(name, corev1.ResourceAttachableVolumesPrefix) ||
		strings.Contains(name, corev1.ResourceDefaultNamespacePrefix) ||
		isExtendedResourceName(name)
}

// isExtendedResourceName reports whether name is an extended resource: a
// domain-qualified name outside kubernetes.io that can be quota'd as
// requests.<name>.
func isExtendedResourceName(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, corev1.ResourceDefaultNamespacePrefix) ||
		strings.HasPrefix(name, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(content.IsLabelKey(corev1.DefaultResourceRequestsPrefix+name)) == 0
}
