package webhook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// ConfigError is a problem with one document of a configuration file.
type ConfigError struct {
	File     string // the path as given; "<stdin>" for standard input
	Document int    // 1-based index of the YAML document; 0 for the file as a whole
	Name     string // metadata.name, when known
	Err      error
}

func (e *ConfigError) Error() string {
	msg := e.File
	if e.Document > 0 {
		msg += ": document " + strconv.Itoa(e.Document)
	}
	if e.Name != "" {
		msg += " " + strconv.Quote(e.Name)
	}
	return msg + ": " + e.Err.Error()
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Loader reads ResourceInterpreterWebhookConfigurations from files.
type Loader struct {
	// Stdin is read for the path "-"; nil means standard input is not offered.
	Stdin io.Reader
}

// Loaded is what a Loader read.
type Loaded struct {
	// Configurations are the valid configurations, sorted by name: the
	// order in which their webhooks are consulted.
	Configurations []*ResourceInterpreterWebhookConfiguration
	// Warnings are documents skipped for their kind.
	Warnings []string
}

// Load reads the configurations of every path: a YAML or JSON file of one
// or more documents (a List of configurations counts as its items), a
// directory (every *.yaml, *.yml and *.json file below it, hidden entries
// skipped) or "-" for l.Stdin. Documents of other kinds are skipped with a
// warning. Every problem is reported, each a *ConfigError, joined in one
// error; the configurations are returned only when there is none.
func (l Loader) Load(paths ...string) (*Loaded, error) {
	loaded := &Loaded{}
	var errs []error
	byName := map[string]string{}
	for _, path := range paths {
		files, err := expand(path)
		if err != nil {
			errs = append(errs, &ConfigError{File: path, Err: err})
			continue
		}
		for _, file := range files {
			name := file
			if file == "-" {
				name = "<stdin>"
			}
			data, err := l.read(file)
			if err != nil {
				errs = append(errs, &ConfigError{File: name, Err: err})
				continue
			}
			configs, warnings, err := parse(name, data)
			errs = append(errs, err)
			loaded.Warnings = append(loaded.Warnings, warnings...)
			for _, c := range configs {
				if where, dup := byName[c.config.Name]; dup {
					errs = append(errs, &ConfigError{File: name, Document: c.doc, Name: c.config.Name, Err: fmt.Errorf("metadata.name: duplicate of %s", where)})
					continue
				}
				byName[c.config.Name] = fmt.Sprintf("%s: document %d", name, c.doc)
				loaded.Configurations = append(loaded.Configurations, c.config)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.Slice(loaded.Configurations, func(i, j int) bool { return loaded.Configurations[i].Name < loaded.Configurations[j].Name })
	return loaded, nil
}

// Parse decodes and validates the configurations of one file's contents;
// name stands for the file in messages.
func Parse(name string, data []byte) ([]*ResourceInterpreterWebhookConfiguration, error) {
	found, _, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	configs := make([]*ResourceInterpreterWebhookConfiguration, len(found))
	for i, c := range found {
		configs[i] = c.config
	}
	return configs, nil
}

// located is a configuration and the document it came from.
type located struct {
	config *ResourceInterpreterWebhookConfiguration
	doc    int
}

func parse(name string, data []byte) ([]located, []string, error) {
	var (
		found    []located
		warnings []string
		errs     []error
	)
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for doc := 1; ; doc++ {
		raw, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			errs = append(errs, &ConfigError{File: name, Document: doc, Err: err})
			break
		}
		js, err := yaml.YAMLToJSONStrict(raw)
		if err != nil {
			errs = append(errs, &ConfigError{File: name, Document: doc, Err: err})
			continue
		}
		if string(bytes.TrimSpace(js)) == "null" {
			doc-- // an empty document, as after a trailing "---", is not counted
			continue
		}
		items, warning, err := documentItems(js)
		if err != nil {
			errs = append(errs, &ConfigError{File: name, Document: doc, Err: err})
			continue
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("%s: document %d: %s", name, doc, warning))
		}
		for _, item := range items {
			config, problems := decodeConfiguration(item)
			for _, err := range problems {
				errs = append(errs, &ConfigError{File: name, Document: doc, Name: config.Name, Err: err})
			}
			if len(problems) == 0 {
				found = append(found, located{config, doc})
			}
		}
	}
	return found, warnings, errors.Join(errs...)
}

// documentItems returns the configurations of a JSON document: itself, or
// the items of a List; a warning when it is of another kind.
func documentItems(js []byte) ([]json.RawMessage, string, error) {
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(js, &head); err != nil {
		return nil, "", errors.New("want a Kubernetes object (a mapping with apiVersion and kind)")
	}
	switch head.Kind {
	case ConfigurationKind:
		return []json.RawMessage{js}, "", nil
	case "List", ConfigurationKind + "List":
		return head.Items, "", nil
	case "":
		return nil, "skipped: not a Kubernetes object (no kind)", nil
	}
	return nil, fmt.Sprintf("skipped %s %s: not a %s", head.APIVersion, head.Kind, ConfigurationKind), nil
}

// decodeConfiguration decodes one configuration strictly and validates it,
// returning every problem. The configuration is returned even then, for its name.
func decodeConfiguration(js []byte) (*ResourceInterpreterWebhookConfiguration, []error) {
	c := &ResourceInterpreterWebhookConfiguration{}
	strict, err := kjson.UnmarshalStrict(js, c)
	if err != nil {
		return c, []error{err}
	}
	if len(strict) > 0 {
		return c, strict
	}
	var errs []error
	for _, e := range c.Validate() {
		errs = append(errs, e)
	}
	return c, errs
}

// expand returns the files a path stands for.
func expand(path string) ([]string, error) {
	if path == "-" {
		return []string{path}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p != path && strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return filepath.SkipDir
			}
		case !e.IsDir() && isManifest(p):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(files) == 0 {
		return nil, errors.New("no *.yaml, *.yml or *.json file in directory")
	}
	return files, nil
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func (l Loader) read(file string) ([]byte, error) {
	if file != "-" {
		data, err := os.ReadFile(file)
		return data, unwrapPathError(err)
	}
	if l.Stdin == nil {
		return nil, errors.New("standard input is not available")
	}
	return io.ReadAll(l.Stdin)
}

// unwrapPathError drops the operation and path of an *fs.PathError: the
// ConfigError naming the file already shows it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
