package deploy_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/source"
)

// access is one request a service account makes, or must not be able to;
// resource may name a subresource: "deployments/status".
type access struct {
	verb, group, resource, namespace, name string
	allowed                                bool
}

func (a access) String() string {
	return fmt.Sprintf("%s %s.%s %s/%s", a.verb, a.resource, a.group, a.namespace, a.name)
}

// TestRBAC applies rbac.yaml and controller-rbac.yaml and asks the API
// server's authorizer what each service account may do: all that it needs,
// and none of the nearby things it does not. The webhook server's Source
// then starts as its service account.
func TestRBAC(t *testing.T) {
	cfg := env.Config(t)
	mapper := newMapper(cfg)
	for _, file := range []string{"namespace.yaml", "rbac.yaml", "controller-rbac.yaml"} {
		objs, err := (&manifest.Reader{}).Objects(file)
		require.NoError(t, err)
		for _, obj := range objs {
			u := &unstructured.Unstructured{Object: obj.Object}
			if u.GetKind() == "Namespace" {
				continue // create makes it
			}
			create(t, cfg, mapper, u, false)
		}
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	const ns = "karmada-system"
	for _, tc := range []struct {
		account string
		checks  []access
	}{
		{"luainterp", []access{
			{"list", "config.karmada.io", "resourceinterpretercustomizations", "", "", true},
			{"watch", "config.karmada.io", "resourceinterpreterwebhookconfigurations", "", "", true},
			{"create", "", "events", "default", "", true},
			{"patch", "", "events", "default", "", true},
			{"update", "config.karmada.io", "resourceinterpretercustomizations", "", "c", false},
			{"get", "config.karmada.io", "resourceinterpretercustomizations", "", "c", false},
			{"list", "work.karmada.io", "works", "", "", false},
			{"list", "", "secrets", ns, "", false},
		}},
		{"luainterp-controller", []access{
			{"watch", "work.karmada.io", "resourcebindings", "", "", true},
			{"update", "work.karmada.io", "clusterresourcebindings", "", "b", true},
			{"create", "work.karmada.io", "works", "karmada-es-member1", "", true},
			{"update", "work.karmada.io", "works", "karmada-es-member1", "w", true},
			{"delete", "work.karmada.io", "works", "karmada-es-member1", "w", true},
			{"list", "policy.karmada.io", "clusteroverridepolicies", "", "", true},
			{"watch", "cluster.karmada.io", "clusters", "", "", true},
			{"list", "config.karmada.io", "resourceinterpretercustomizations", "", "", true},
			{"watch", "apps", "deployments", "", "", true},
			{"list", "apps.kruise.io", "clonesets", "", "", true},
			{"create", "coordination.k8s.io", "leases", ns, "", true},
			{"get", "coordination.k8s.io", "leases", ns, "luainterp-controller", true},
			{"update", "coordination.k8s.io", "leases", ns, "luainterp-controller", true},
			{"create", "", "events", "default", "", true},
			{"delete", "work.karmada.io", "resourcebindings", "default", "b", false},
			{"patch", "work.karmada.io", "works", "karmada-es-member1", "w", false},
			{"update", "cluster.karmada.io", "clusters", "", "member1", false},
			{"update", "apps", "deployments", "default", "d", false},
			{"update", "coordination.k8s.io", "leases", ns, "another", false},
			{"update", "coordination.k8s.io", "leases", "default", "luainterp-controller", false},
			{"list", "", "secrets", "", "", false},
			// The status loop: status subresources only.
			{"update", "work.karmada.io", "resourcebindings/status", "default", "b", true},
			{"update", "work.karmada.io", "clusterresourcebindings/status", "", "b", true},
			{"update", "apps", "deployments/status", "default", "d", true},
			{"update", "", "services/status", "default", "s", true},
			{"update", "apps.kruise.io", "clonesets/status", "default", "c", true},
			{"update", "apps.kruise.io", "clonesets", "default", "c", false},
			{"patch", "apps", "deployments/status", "default", "d", false},
			{"update", "work.karmada.io", "works/status", "karmada-es-member1", "w", false},
			{"update", "", "secrets/status", "default", "s", false},
		}},
	} {
		user := "system:serviceaccount:" + ns + ":" + tc.account
		for _, a := range tc.checks {
			t.Run(tc.account+"/"+a.String(), func(t *testing.T) {
				resource, subresource, _ := strings.Cut(a.resource, "/")
				review, err := client.AuthorizationV1().SubjectAccessReviews().Create(context.Background(), &authorizationv1.SubjectAccessReview{
					Spec: authorizationv1.SubjectAccessReviewSpec{
						User:   user,
						Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
						ResourceAttributes: &authorizationv1.ResourceAttributes{
							Verb: a.verb, Group: a.group, Resource: resource, Subresource: subresource, Namespace: a.namespace, Name: a.name,
						},
					},
				}, metav1.CreateOptions{})
				require.NoError(t, err)
				assert.Equal(t, a.allowed, review.Status.Allowed, "%s: %s", user, review.Status.Reason)
			})
		}
	}

	t.Run("the webhook server's Source starts as its service account", func(t *testing.T) {
		sa := env.User(t, "system:serviceaccount:"+ns+":luainterp", "system:serviceaccounts")
		s, err := source.New(sa, interpreter.NewRegistry(), luavm.New())
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		require.NoError(t, s.Start(ctx))
	})
}
