package prune

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func object(t *testing.T, doc string) *unstructured.Unstructured {
	t.Helper()
	obj := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(doc), &obj.Object))
	return obj
}

func TestPrune(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"common fields", `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, uid: u, generation: 2, resourceVersion: "5", creationTimestamp: "2026-01-01T00:00:00Z",
  deletionTimestamp: "2026-01-02T00:00:00Z", deletionGracePeriodSeconds: 30, selfLink: /x, managedFields: [{}],
  ownerReferences: [{name: o}], finalizers: [f], labels: {a: b}}
data: {k: v}
status: {x: 1}`, `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, labels: {a: b}}
data: {k: v}`},
		{"deployment revision annotations, empty map kept", `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, annotations: {deployment.kubernetes.io/revision: "3", deployment.kubernetes.io/revision-history: "1,2"}}`, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, annotations: {}}`},
		{"job generated labels and ttl", `
apiVersion: batch/v1
kind: Job
metadata: {name: foo}
spec: {ttlSecondsAfterFinished: 5,
  selector: {matchLabels: {controller-uid: x, batch.kubernetes.io/controller-uid: x}},
  template: {metadata: {labels: {job-name: foo, batch.kubernetes.io/job-name: foo, controller-uid: x, app: a}}}}`, `
apiVersion: batch/v1
kind: Job
metadata: {name: foo}
spec: {selector: {matchLabels: {}}, template: {metadata: {labels: {app: a}}}}`},
		{"job with manual selector keeps labels, loses ttl", `
apiVersion: batch/v1
kind: Job
metadata: {name: foo}
spec: {manualSelector: true, ttlSecondsAfterFinished: 5, selector: {matchLabels: {controller-uid: x}}}`, `
apiVersion: batch/v1
kind: Job
metadata: {name: foo}
spec: {manualSelector: true, selector: {matchLabels: {controller-uid: x}}}`},
		{"service cluster IPs", `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {clusterIP: 10.0.0.1, clusterIPs: [10.0.0.1], ports: [{port: 80, nodePort: 30080}]}`, `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {ports: [{port: 80, nodePort: 30080}]}`},
		{"headless service keeps its IPs", `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {clusterIP: None, clusterIPs: [None]}`, `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {clusterIP: None, clusterIPs: [None]}`},
		{"service without clusterIP keeps clusterIPs", `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {clusterIPs: [10.0.0.1]}`, `
apiVersion: v1
kind: Service
metadata: {name: s}
spec: {clusterIPs: [10.0.0.1]}`},
		{"a CRD named Service is pruned too", `
apiVersion: example.io/v1
kind: Service
metadata: {name: s}
spec: {clusterIP: 1.2.3.4}`, `
apiVersion: example.io/v1
kind: Service
metadata: {name: s}
spec: {}`},
		{"service account token secrets, adjacent one skipped", `
apiVersion: v1
kind: ServiceAccount
metadata: {name: foo}
secrets: [{name: foo-token-a}, {name: foo-token-b}, {name: foo-dockercfg-c}, {name: foo-token-d}]`, `
apiVersion: v1
kind: ServiceAccount
metadata: {name: foo}
secrets: [{name: foo-token-b}, {name: foo-dockercfg-c}]`},
		{"service account token secret", `
apiVersion: v1
kind: Secret
type: kubernetes.io/service-account-token
metadata: {name: t, annotations: {kubernetes.io/service-account.uid: u, kubernetes.io/service-account.name: foo}}
data: {token: dA==}`, `
apiVersion: v1
kind: Secret
type: kubernetes.io/service-account-token
metadata: {name: t, annotations: {kubernetes.io/service-account.name: foo}}
data: null`},
		{"opaque secret keeps its data", `
apiVersion: v1
kind: Secret
type: Opaque
metadata: {name: t}
data: {token: dA==}`, `
apiVersion: v1
kind: Secret
type: Opaque
metadata: {name: t}
data: {token: dA==}`},
		{"claim selected node", `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, annotations: {volume.kubernetes.io/selected-node: n1, pv.kubernetes.io/bind-completed: "yes"}}
spec: {volumeName: pv1}`, `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {volumeName: pv1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, tt.in)
			require.NoError(t, Prune(obj))
			assert.Equal(t, object(t, tt.want).Object, obj.Object)
		})
	}
}

func TestPruneErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"job that does not decode", `
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec: {parallelism: "two"}`, "prune Job: decode as batch/v1 Job: unrecognized type: int32"},
		{"job with a null selector map", `
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec: {selector: {matchLabels: null}}`, "prune Job: .spec.selector.matchLabels accessor error: <nil> is of the type <nil>, expected map[string]interface{}"},
		{"service account secret without a name", `
apiVersion: v1
kind: ServiceAccount
metadata: {name: foo}
secrets: [{name: 3}]`, "prune ServiceAccount: .secrets[0].name: want a string, got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Prune(object(t, tt.in))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}
