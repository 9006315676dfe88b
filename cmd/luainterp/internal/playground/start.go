package playground

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/testsuite"
)

//go:embed assets
var assetFS embed.FS

//go:embed starter
var starterFS embed.FS

// Start is what the page starts from (GET /api/start).
type Start struct {
	// Source says where the customization came from: a file or a suite
	// folder, or "starter" for the built-in example.
	Source        string `json:"source"`
	Customization string `json:"customization"`
	Object        string `json:"object"`
	StatusItems   string `json:"statusItems"`
	Replicas      int64  `json:"replicas"`
	Tests         string `json:"tests"`
}

// Starter is the built-in example: a customization for a Widget, an
// object, status items and test cases that pass.
func Starter() Start {
	read := func(name string) string {
		b, err := starterFS.ReadFile("starter/" + name)
		if err != nil {
			panic(err) // embedded: present at build time
		}
		return string(b)
	}
	return Start{Source: "starter", Customization: read("customization.yaml"), Object: read("object.yaml"),
		StatusItems: read("statusitems.yaml"), Replicas: 2, Tests: read("tests.yaml")}
}

// LoadStart reads what the page starts from: the customization file at
// path, or a suite folder's customizations.yaml and its testdata/*.yaml
// test cases (path "" keeps the starter's), and the object at objectPath
// ("" keeps the starter's object when no path is given, else the first
// test case's input object, else none).
func LoadStart(path, objectPath string) (Start, error) {
	st := Starter()
	if path != "" {
		info, err := os.Stat(path)
		if err != nil {
			return st, fmt.Errorf("-f: %w", err)
		}
		st.Source, st.Tests, st.Object, st.StatusItems = path, "", "", ""
		file := path
		if info.IsDir() {
			file = filepath.Join(path, testsuite.CustomizationsFile)
			if st.Tests, err = readTests(filepath.Join(path, "testdata")); err != nil {
				return st, fmt.Errorf("-f: %w", err)
			}
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return st, fmt.Errorf("-f: %w", err)
		}
		st.Customization = string(b)
		st.Object = firstObject(st.Tests)
	}
	if objectPath != "" {
		b, err := os.ReadFile(objectPath)
		if err != nil {
			return st, fmt.Errorf("--object: %w", err)
		}
		st.Object = string(b)
	}
	return st, nil
}

// readTests joins the test case files of dir into one text; none when
// dir does not exist.
func readTests(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return "", err
	}
	var docs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return "", err
		}
		docs = append(docs, strings.TrimSuffix(string(b), "\n"))
	}
	if len(docs) == 0 {
		return "", nil
	}
	return strings.Join(docs, "\n---\n") + "\n", nil
}

// firstObject is the input object of the first test case of tests, as
// YAML; "" when there is none.
func firstObject(tests string) string {
	cases, _ := testsuite.Parse(InputTests, []byte(tests))
	for _, c := range cases {
		for _, obj := range []*unstructured.Unstructured{c.ObservedObj, c.DesiredObj} {
			if obj != nil {
				return toYAML(obj.Object)
			}
		}
	}
	return ""
}
