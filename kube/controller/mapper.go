package controller

import (
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/restmapper"
)

// groupVersionMapper maps kinds to resources one group version at a time:
// it asks discovery only for the group versions it is asked about, and keeps
// only those. A discovery mapper of every group (client-go's deferred one)
// costs each replica ~0.3 MiB of heap against a bare API server, and grows
// with every CRD of the control plane; the controller needs the handful of
// kinds its templates have.
type groupVersionMapper struct {
	discovery discovery.DiscoveryInterface

	mu   sync.Mutex
	byGV map[schema.GroupVersion]meta.RESTMapper
}

func newGroupVersionMapper(d discovery.DiscoveryInterface) *groupVersionMapper {
	return &groupVersionMapper{discovery: d, byGV: map[schema.GroupVersion]meta.RESTMapper{}}
}

// mapping maps gvk to its resource. A kind its group version's resources
// lack is looked up again once, as a CRD may have been installed since.
func (m *groupVersionMapper) mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	if gvk.Version == "" {
		return nil, fmt.Errorf("map %s: a version is needed", gvk.GroupKind())
	}
	gv := gvk.GroupVersion()
	m.mu.Lock()
	mapper, ok := m.byGV[gv]
	m.mu.Unlock()
	if ok {
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gv.Version)
		if !meta.IsNoMatchError(err) {
			return mapping, err
		}
	}
	mapper, err := m.discover(gv)
	if err != nil {
		return nil, err
	}
	return mapper.RESTMapping(gvk.GroupKind(), gv.Version)
}

// discover asks discovery for gv's resources and keeps their mapper. A group
// version the API server does not serve maps nothing (a NoKindMatchError).
func (m *groupVersionMapper) discover(gv schema.GroupVersion) (meta.RESTMapper, error) {
	list, err := m.discovery.ServerResourcesForGroupVersion(gv.String())
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("discover %s: %w", gv, err)
	}
	var resources []metav1.APIResource
	if list != nil {
		resources = list.APIResources
	}
	version := metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: gv.Version}
	mapper := restmapper.NewDiscoveryRESTMapper([]*restmapper.APIGroupResources{{
		Group:              metav1.APIGroup{Name: gv.Group, Versions: []metav1.GroupVersionForDiscovery{version}, PreferredVersion: version},
		VersionedResources: map[string][]metav1.APIResource{gv.Version: resources},
	}})
	m.mu.Lock()
	m.byGV[gv] = mapper
	m.mu.Unlock()
	return mapper, nil
}
