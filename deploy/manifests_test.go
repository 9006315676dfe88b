package deploy_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/manifest"
)

// manifests are deploy/'s files in the order they are applied.
var manifests = []string{
	"namespace.yaml",
	"rbac.yaml", "controller-rbac.yaml",
	"cert-manager.yaml",
	"luainterp.yaml", "controller.yaml", "controller-sharded.yaml",
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
	env.InstallCRD(t, certManagerCRD)
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
