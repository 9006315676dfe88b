package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/layout"
)

// ErrExists is the error of Write for a folder that already holds a suite.
var ErrExists = errors.New("already exists; init writes a new suite only")

// CustomizationFile is the name of a suite's customization file.
const CustomizationFile = "customizations.yaml"

// caseHeader heads every test file Write writes.
const caseHeader = `# A test case written by luainterp init: its output is what the script
# returned on the sample object. Change the object and the expected output
# with the script; "{{EXCLUDE}}" as a value leaves that field out.
`

// Write writes a suite for t into dir, made if missing: customizations.yaml
// and one file per rule in testdata/, whose cases pass on it, and the CRD
// in crds/ when t has one. It fails with
// ErrExists, writing nothing, when a file it would write is there. It
// returns the paths it wrote.
func Write(ctx context.Context, dir string, t Target) ([]string, error) {
	name := strings.ToLower(t.GVK.Kind)
	custom, err := Customization(t, name)
	if err != nil {
		return nil, err
	}
	customPath := filepath.Join(dir, CustomizationFile)
	cases, err := Cases(ctx, t, customPath, custom)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{customPath: custom}
	order := []string{customPath}
	for _, c := range cases {
		data, err := c.YAML()
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
		path := filepath.Join(dir, "testdata", strings.ToLower(c.Operation)+".yaml")
		files[path] = append([]byte(caseHeader), data...)
		order = append(order, path)
	}
	if t.CRD != nil {
		// Recorded in the suite, so that `luainterp test` validates its
		// cases against the CRD without --crd.
		data, err := yaml.JSONToYAML(t.CRD)
		if err != nil {
			return nil, fmt.Errorf("the CRD %s: %w", t.CRDName, err)
		}
		path := filepath.Join(dir, layout.CRDsDir, t.CRDName+".yaml")
		files[path] = data
		order = append(order, path)
	}
	for _, path := range order {
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
	}
	for _, path := range order {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, files[path], 0o644); err != nil {
			return nil, err
		}
	}
	return order, nil
}
