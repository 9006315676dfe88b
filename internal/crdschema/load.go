package crdschema

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// Schemas holds the schemas of the served versions of a set of CRDs.
// It is safe for concurrent use.
type Schemas struct {
	versions map[schema.GroupVersionKind]*version
}

// version is one served version of a CRD. Its validators are built the
// first time an object of the version is validated.
type version struct {
	file string // the CRD's file, for messages
	crd  *apiextensions.CustomResourceDefinition
	name string

	once sync.Once
	err  error
	validators
}

// validators is everything needed to validate objects of one version.
type validators struct {
	namespaced      bool
	structural      *structuralschema.Structural
	validator       validation.SchemaValidator
	cel             *cel.Validator // nil when the schema has no CEL rules
	status          *structuralschema.Structural
	statusValidator validation.SchemaValidator
	statusCEL       *cel.Validator
}

// LoadError is a CRD file that cannot be used: it does not decode, or a
// version's schema is not one the API server would accept.
type LoadError struct {
	File    string
	Version string // "" when the error is about the whole file
	Err     error
}

func (e *LoadError) Error() string {
	if e.Version == "" {
		return fmt.Sprintf("crd %s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("crd %s: version %s: %v", e.File, e.Version, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Load reads the CRDs of every *.yaml file in dir of fsys; see the
// package documentation.
func Load(fsys fs.FS, dir string) (*Schemas, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("crd directory %s: no *.yaml file", dir)
	}
	slices.Sort(files)
	s := &Schemas{versions: map[schema.GroupVersionKind]*version{}}
	for _, file := range files {
		if err := s.loadFile(fsys, file); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// LoadFiles reads the CRD of each file (a path of the file system, or a
// directory whose *.yaml files each hold one), as Load does: a kind's
// version served by two files is the first one's.
func LoadFiles(paths ...string) (*Schemas, error) {
	s := &Schemas{versions: map[schema.GroupVersionKind]*version{}}
	for _, p := range paths {
		files := []string{p}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			if files, err = filepath.Glob(filepath.Join(p, "*.yaml")); err != nil || len(files) == 0 {
				return nil, fmt.Errorf("crd directory %s: no *.yaml file", p)
			}
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, &LoadError{File: file, Err: err}
			}
			if err := s.add(file, data); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// loadFile adds the served versions of the CRD in file that no earlier
// file served.
func (s *Schemas) loadFile(fsys fs.FS, file string) error {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return &LoadError{File: file, Err: err}
	}
	return s.add(file, data)
}

// add adds the served versions of the CRD data, read from file, that no
// earlier file served.
func (s *Schemas) add(file string, data []byte) error {
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &v1); err != nil {
		return &LoadError{File: file, Err: err}
	}
	if v1.Kind != "CustomResourceDefinition" {
		return &LoadError{File: file, Err: fmt.Errorf("kind %q, not CustomResourceDefinition", v1.Kind)}
	}
	var crd apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &crd, nil); err != nil {
		return &LoadError{File: file, Err: err}
	}
	for _, ver := range crd.Spec.Versions {
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: ver.Name, Kind: crd.Spec.Names.Kind}
		if !ver.Served || s.versions[gvk] != nil {
			continue
		}
		s.versions[gvk] = &version{file: file, crd: &crd, name: ver.Name}
	}
	return nil
}

// get returns the version's validators, building them on the first call.
func (v *version) get() (*validators, error) {
	v.once.Do(func() {
		v.err = v.validators.build(v.crd, v.name)
		if v.err != nil {
			v.err = &LoadError{File: v.file, Version: v.name, Err: v.err}
		}
	})
	return &v.validators, v.err
}

// build builds the validators of version name of crd.
func (v *validators) build(crd *apiextensions.CustomResourceDefinition, name string) error {
	validationSchema, err := apiextensions.GetSchemaForVersion(crd, name)
	if err != nil {
		return err
	}
	if validationSchema == nil || validationSchema.OpenAPIV3Schema == nil {
		return fmt.Errorf("no openAPIV3Schema")
	}
	props := validationSchema.OpenAPIV3Schema
	structural, err := structuralschema.NewStructural(props)
	if err != nil {
		return fmt.Errorf("building the structural schema: %w", err)
	}
	if errs := structuralschema.ValidateStructural(nil, structural); len(errs) > 0 {
		return fmt.Errorf("not a structural schema: %w", errs.ToAggregate())
	}
	validator, _, err := validation.NewSchemaValidator(props)
	if err != nil {
		return fmt.Errorf("building the schema validator: %w", err)
	}
	*v = validators{
		namespaced: crd.Spec.Scope == apiextensions.NamespaceScoped,
		structural: structural,
		validator:  validator,
		cel:        cel.NewValidator(structural, true, celconfig.PerCallLimit),
	}
	if statusProps, ok := props.Properties["status"]; ok {
		status := structural.Properties["status"]
		v.status = &status
		if v.statusValidator, _, err = validation.NewSchemaValidator(&statusProps); err != nil {
			return fmt.Errorf("building the status schema validator: %w", err)
		}
		v.statusCEL = cel.NewValidator(v.status, false, celconfig.PerCallLimit)
	}
	return nil
}

// Kinds returns the group, version and kind of every loaded version.
func (s *Schemas) Kinds() []schema.GroupVersionKind {
	kinds := make([]schema.GroupVersionKind, 0, len(s.versions))
	for gvk := range s.versions {
		kinds = append(kinds, gvk)
	}
	slices.SortFunc(kinds, func(a, b schema.GroupVersionKind) int {
		return strings.Compare(a.String(), b.String())
	})
	return kinds
}

// Has reports whether a schema for gvk is loaded.
func (s *Schemas) Has(gvk schema.GroupVersionKind) bool { return s.versions[gvk] != nil }

// File returns the CRD file gvk's schema was read from; "" when none was.
func (s *Schemas) File(gvk schema.GroupVersionKind) string {
	if v := s.versions[gvk]; v != nil {
		return v.file
	}
	return ""
}

func gvkString(gvk schema.GroupVersionKind) string {
	return gvk.GroupVersion().String() + " " + gvk.Kind
}

// Beside returns the schemas of s, and of other for the versions s does
// not serve: s's CRD of a version wins. Either may be nil; s and other are
// unchanged.
func (s *Schemas) Beside(other *Schemas) *Schemas {
	switch {
	case s == nil:
		return other
	case other == nil:
		return s
	}
	out := &Schemas{versions: maps.Clone(other.versions)}
	maps.Copy(out.versions, s.versions)
	return out
}
