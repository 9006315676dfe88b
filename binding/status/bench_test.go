package status_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// benchManifest is web as the binding step writes it into a Work: a pod
// template with one container, the pipeline's labels and annotations.
const benchManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"resourcebinding.karmada.io/name":"web-deployment","resourcebinding.karmada.io/namespace":"shop","resourcetemplate.karmada.io/generation":"1","resourcetemplate.karmada.io/managed-annotations":"resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/generation,resourcetemplate.karmada.io/uid,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace","resourcetemplate.karmada.io/uid":"6a3c1a52-9a6f-4f0e-8a55-0b7c9d1e2f30","work.karmada.io/conflict-resolution":"abort","work.karmada.io/name":"web-56d6c779bb","work.karmada.io/namespace":"karmada-es-member"},"labels":{"app":"web","karmada.io/managed":"true","resourcebinding.karmada.io/permanent-id":"0b1f3c7e-2d4a-4e59-8c61-7a9e5d2b4f10","resourcetemplate.karmada.io/managed-labels":"app,karmada.io/managed,resourcebinding.karmada.io/permanent-id"},"name":"web","namespace":"shop"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"web","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}}}]}}}}`

// benchWorks returns the Works of web in n clusters, each applied and
// reporting two replicas ready.
func benchWorks(n int) []api.Work {
	works := make([]api.Work, n)
	for i := range works {
		works[i] = work(fmt.Sprintf("member%04d", i), "True", "Healthy", memberStatus(2))
		works[i].Spec.Workload.Manifests[0].Raw = []byte(benchManifest)
	}
	return works
}

// BenchmarkPass is one pass of the status loop over a binding of 1,000
// clusters: assemble the aggregatedStatus from the Works, compare it with
// the stored one, AggregateStatus by the built-in Deployment handler and
// the comparison of the template's status. "steady" finds nothing changed
// (a resync); "one member changed" finds one member's status new, so both
// comparisons differ.
func BenchmarkPass(b *testing.B) {
	const clusters = 1000
	ctx := context.Background()
	loop := status.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	works := benchWorks(clusters)
	first, err := loop.Pass(ctx, status.Input{Binding: "shop/web-deployment", Resource: web, Works: works, Template: deployment(nil)})
	require.NoError(b, err)
	steady := status.Input{Binding: "shop/web-deployment", Resource: web, Works: works,
		Current: first.AggregatedStatus, Template: first.Template(deployment(nil))}
	changed := steady
	changed.Works = append([]api.Work{}, works...)
	changed.Works[clusters/2].Status.ManifestStatuses = []api.ManifestStatus{{Identifier: webID, Health: "Healthy",
		Status: &runtime.RawExtension{Raw: []byte(memberStatus(1))}}}
	for _, bc := range []struct {
		name            string
		in              status.Input
		statusChanged   bool
		templateChanged bool
	}{
		{"steady", steady, false, false},
		{"one member changed", changed, true, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := loop.Pass(ctx, bc.in)
				if err != nil || res.StatusChanged != bc.statusChanged || res.TemplateChanged != bc.templateChanged {
					b.Fatalf("pass: %v, status changed %v, template changed %v", err, res.StatusChanged, res.TemplateChanged)
				}
			}
		})
	}
}

// BenchmarkAssemble is the assembly alone over 1,000 Works.
func BenchmarkAssemble(b *testing.B) {
	works := benchWorks(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := status.Assemble("shop/web-deployment", web, works); err != nil {
			b.Fatal(err)
		}
	}
}
