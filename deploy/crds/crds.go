package crds

import (
	"embed"
	"fmt"
	"io/fs"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// FS holds the CRD files, one CustomResourceDefinition each.
//
//go:embed *.yaml
var FS embed.FS

// Definitions decodes every CRD of FS, in file name order. A field the
// apiextensions v1 types do not know is an error naming the file.
func Definitions() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	names, err := fs.Glob(FS, "*.yaml")
	if err != nil {
		return nil, err
	}
	defs := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(names))
	for _, name := range names {
		data, err := FS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(data, crd); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defs = append(defs, crd)
	}
	return defs, nil
}
