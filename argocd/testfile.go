package argocd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/manifest"
)

// The cases of health_test.yaml and action_test.yaml, as Argo CD reads
// them: YAML turned into JSON, keys matched to fields regardless of case.
type (
	healthTestFile struct {
		Tests []healthCase `json:"tests"`
	}
	healthCase struct {
		HealthStatus HealthStatus `json:"healthStatus"`
		InputPath    string       `json:"inputPath"`
	}
	actionTestFile struct {
		DiscoveryTests []discoveryCase `json:"discoveryTests"`
		ActionTests    []actionCase    `json:"actionTests"`
	}
	discoveryCase struct {
		InputPath string   `json:"inputPath"`
		Result    []Action `json:"result"`
	}
	actionCase struct {
		Action               string            `json:"action"`
		InputPath            string            `json:"inputPath"`
		ExpectedOutputPath   string            `json:"expectedOutputPath"`
		Parameters           map[string]string `json:"parameters"`
		ExpectedErrorMessage string            `json:"expectedErrorMessage"`
	}
)

// testFile is a read test file: its cases with the line each starts on.
type testFile struct {
	path   string
	health []healthCase
	disc   []discoveryCase
	action []actionCase
	// lines of each case, by the list's key, in order
	lines map[string][]int
}

// readTestFile reads health_test.yaml or action_test.yaml. Decoding is
// strict about types; as on Argo CD an unknown key is ignored, unless
// strict.
func readTestFile(path string, strict bool) (*testFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &testFile{path: path, lines: map[string][]int{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.lines = caseLines(&root)
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	into := any(&healthTestFile{})
	if filepath.Base(path) == ActionTestFile {
		into = &actionTestFile{}
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(into); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch v := into.(type) {
	case *healthTestFile:
		f.health = v.Tests
	case *actionTestFile:
		f.disc, f.action = v.DiscoveryTests, v.ActionTests
	}
	return f, nil
}

// caseLines returns the line of each item of the top-level lists.
func caseLines(root *yaml.Node) map[string][]int {
	lines := map[string][]int{}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return lines
	}
	m := root.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		for _, item := range m[i+1].Content {
			lines[m[i].Value] = append(lines[m[i].Value], item.Line)
		}
	}
	return lines
}

// line returns the line of the i-th case of the list key, 0 when unknown.
func (f *testFile) line(key string, i int) int {
	for k, lines := range f.lines {
		if strings.EqualFold(k, key) && i < len(lines) {
			return lines[i]
		}
	}
	return 0
}

// readObject reads one Kubernetes object from a YAML file relative to dir.
func readObject(dir, rel string) (*unstructured.Unstructured, error) {
	m, err := readJSONValue(dir, rel)
	if err != nil {
		return nil, err
	}
	obj, ok := m.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: holds a %T, not an object", filepath.Join(dir, rel), m)
	}
	return &unstructured.Unstructured{Object: obj}, nil
}

// readJSONValue reads a YAML file relative to dir as Argo CD does: turned
// into JSON, so numbers are float64 and timestamps strings.
func readJSONValue(dir, rel string) (any, error) {
	if rel == "" {
		return nil, fmt.Errorf("no input path")
	}
	path := filepath.Join(dir, rel)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// source is where a case is, for reports.
func source(file string, line int) manifest.Source { return manifest.Source{File: file, Line: line} }
