package deploy_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/manifest"
)

// manifests are deploy/'s files in the order they are applied.
var manifests = []string{
	"namespace.yaml",
	"rbac.yaml", "controller-rbac.yaml",
	"cert-manager.yaml",
	"luainterp.yaml", "controller.yaml",
	"admission.yaml", "interpreter-webhook.yaml",
}

// certManagerCRD is the upstream Certificate CRD, the one the bundled
// cert-manager script is checked against.
const certManagerCRD = "../testdata/crds/cert-manager.io_certificates.yaml"

// unchecked are the kinds of the manifests whose CRD is not available
// here, so that no API server checks them: cert-manager's Issuer.
var unchecked = map[string]bool{"cert-manager.io/v1, Kind=Issuer": true}

// TestManifests creates every object of the manifests in the API server,
// dry run, with strict field validation: the API server refuses a
// misspelt field or a wrong type. cert-manager's Certificate is checked
// against its upstream CRD, installed for the test; the Issuers are not
// (their CRD is not here), and the test says so.
func TestManifests(t *testing.T) {
	cfg := env.Config(t)
	installCRD(t, cfg, certManagerCRD)
	mapper := newMapper(cfg)
	var skipped []string
	for _, file := range manifests {
		t.Run(file, func(t *testing.T) {
			objs, err := (&manifest.Reader{}).Objects(file)
			require.NoError(t, err)
			require.NotEmpty(t, objs)
			for _, obj := range objs {
				u := &unstructured.Unstructured{Object: obj.Object}
				if gvk := u.GroupVersionKind().String(); unchecked[gvk] {
					skipped = append(skipped, file+": "+u.GetKind()+" "+u.GetName())
					continue
				}
				create(t, cfg, mapper, u, true)
			}
		})
	}
	t.Logf("not checked, no CRD: %v", skipped)
	assert.Equal(t, []string{"cert-manager.yaml: Issuer luainterp-selfsigned", "cert-manager.yaml: Issuer luainterp-ca"}, skipped)

	t.Run("every manifest is checked", func(t *testing.T) {
		files, err := filepath.Glob("*.yaml")
		require.NoError(t, err)
		slices.Sort(files)
		want := slices.Clone(manifests)
		slices.Sort(want)
		assert.Equal(t, want, files)
	})
}

// installCRD creates the CRD of file and waits until it serves.
func installCRD(t *testing.T, cfg *rest.Config, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, yaml.Unmarshal(data, crd))
	client := apiextensionsclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	if _, err := client.Create(ctx, crd, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool {
		got, err := client.Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true
			}
		}
		return false
	}, 30*time.Second, 100*time.Millisecond, "CRD %s never established", crd.Name)
}
