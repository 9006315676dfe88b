package scripts_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
)

// The bundled scripts answer for the CRDs they cover; Kubernetes' own
// kinds go on to the built-in layer.
func ExampleNewLayer() {
	reg := interpreter.NewRegistry().
		Set(interpreter.LayerThirdParty, scripts.NewLayer(luavm.New())).
		Set(interpreter.LayerBuiltin, builtin.New())

	cloneSet := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.kruise.io/v1alpha1",
		"kind":       "CloneSet",
		"metadata":   map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "web", "resources": map[string]any{"requests": map[string]any{"cpu": "500m"}}},
			}}},
		},
	}}
	replicas, requires, err := reg.GetReplicas(context.Background(), cloneSet)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(replicas, requires.ResourceRequest.Cpu())
	fmt.Println(reg.Which(cloneSet.GroupVersionKind(), interpreter.InterpretReplica))
	// Output:
	// 3 500m
	// thirdparty true
}

// The kinds the bundled scripts cover, in the order of their folders.
func ExampleLayer_Kinds() {
	for _, gvk := range scripts.NewLayer(luavm.New()).Kinds() {
		fmt.Println(gvk.GroupVersion(), gvk.Kind)
	}
	// Output:
	// apps.kruise.io/v1alpha1 AdvancedCronJob
	// apps.kruise.io/v1alpha1 BroadcastJob
	// apps.kruise.io/v1alpha1 CloneSet
	// apps.kruise.io/v1alpha1 DaemonSet
	// apps.kruise.io/v1alpha1 SidecarSet
	// apps.kruise.io/v1alpha1 UnitedDeployment
	// apps.kruise.io/v1beta1 AdvancedCronJob
	// apps.kruise.io/v1beta1 BroadcastJob
	// apps.kruise.io/v1beta1 SidecarSet
	// apps.kruise.io/v1beta1 StatefulSet
	// apps.kruise.io/v1beta1 UnitedDeployment
	// argoproj.io/v1alpha1 AnalysisRun
	// argoproj.io/v1alpha1 Application
	// argoproj.io/v1alpha1 ApplicationSet
	// argoproj.io/v1alpha1 CronWorkflow
	// argoproj.io/v1alpha1 Rollout
	// argoproj.io/v1alpha1 Workflow
	// argoproj.io/v1alpha1 WorkflowTemplate
	// batch.volcano.sh/v1alpha1 Job
	// cert-manager.io/v1 Certificate
	// elasticsearch.k8s.elastic.co/v1 Elasticsearch
	// external-secrets.io/v1 ExternalSecret
	// flink.apache.org/v1beta1 FlinkDeployment
	// flink.apache.org/v1beta1 FlinkSessionJob
	// helm.toolkit.fluxcd.io/v2 HelmRelease
	// helm.toolkit.fluxcd.io/v2beta1 HelmRelease
	// jobset.x-k8s.io/v1alpha2 JobSet
	// kafka.strimzi.io/v1 Kafka
	// keda.sh/v1alpha1 ScaledJob
	// keda.sh/v1alpha1 ScaledObject
	// kubeflow.org/v1 JAXJob
	// kubeflow.org/v1 MPIJob
	// kubeflow.org/v1 Notebook
	// kubeflow.org/v1 PaddleJob
	// kubeflow.org/v1 PyTorchJob
	// kubeflow.org/v1 TFJob
	// kubeflow.org/v1 XGBoostJob
	// kubeflow.org/v2beta1 MPIJob
	// kueue.x-k8s.io/v1beta1 Workload
	// kueue.x-k8s.io/v1beta2 Workload
	// kustomize.toolkit.fluxcd.io/v1 Kustomization
	// kyverno.io/v1 ClusterPolicy
	// kyverno.io/v1 Policy
	// leaderworkerset.x-k8s.io/v1 LeaderWorkerSet
	// monitoring.coreos.com/v1 Alertmanager
	// monitoring.coreos.com/v1 Prometheus
	// postgresql.cnpg.io/v1 Cluster
	// rabbitmq.com/v1beta1 RabbitmqCluster
	// ray.io/v1 RayCluster
	// ray.io/v1 RayJob
	// ray.io/v1 RayService
	// scheduling.volcano.sh/v1beta1 PodGroup
	// scheduling.volcano.sh/v1beta1 Queue
	// serving.knative.dev/v1 Service
	// source.toolkit.fluxcd.io/v1 Bucket
	// source.toolkit.fluxcd.io/v1 GitRepository
	// source.toolkit.fluxcd.io/v1 HelmChart
	// source.toolkit.fluxcd.io/v1 HelmRepository
	// source.toolkit.fluxcd.io/v1 OCIRepository
	// source.toolkit.fluxcd.io/v1beta2 Bucket
	// source.toolkit.fluxcd.io/v1beta2 HelmChart
	// source.toolkit.fluxcd.io/v1beta2 HelmRepository
	// source.toolkit.fluxcd.io/v1beta2 OCIRepository
	// sparkoperator.k8s.io/v1beta2 ScheduledSparkApplication
	// sparkoperator.k8s.io/v1beta2 SparkApplication
	// tekton.dev/v1 PipelineRun
	// tekton.dev/v1beta1 PipelineRun
	// trainer.kubeflow.org/v1alpha1 TrainJob
}
