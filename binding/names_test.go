package binding

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWorkName(t *testing.T) {
	tests := []struct {
		kind, name, namespace, want string
	}{
		{"Deployment", "nginx", "default", "nginx-687f7fb96f"},
		{"ClusterRole", "system:Metrics-Reader", "", "system.metrics-reader-7465b8b566"},
		{"Pod", "pod", "", "pod-6c46fd8b9d"},
		{"pods", "Pod", "default", "pod-5fdddc94c5"},
		{"Pods", "work:pod", "default", "work.pod-85bc474696"},
		{"Job", "pi", "batch", "pi-7c976b75dc"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, WorkName(tt.kind, tt.name, tt.namespace))
		})
	}
}

func TestFNV32a(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
	}{
		{"", 2166136261},
		{"default-nginx-deployment", 2439396529},
		{"system.metrics-reader-clusterrole", 3021646122},
		{"4858ca61-3ff8-4095-8267-f3d059d8074c", 4060803976},
		{"d43fdeeb-d750-4e2b-bee3-64eb94534f4c", 2505132451},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, fnv32a(tt.in))
		})
	}
}

func TestExecutionNamespace(t *testing.T) {
	assert.Equal(t, "karmada-es-member1", ExecutionNamespace("member1"))
}
