package serveconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// ErrUnknownKey is the error of a FieldError for a key Config does not have.
var ErrUnknownKey = errors.New("unknown key")

// FieldError is what is wrong with the configuration, and where.
type FieldError struct {
	File string // the file, when the value came from one
	Path string // the key's path, such as circuit_breakers.max_requests; empty for the whole file
	Err  error
}

func (e *FieldError) Error() string {
	var b strings.Builder
	for _, s := range []string{e.File, e.Path} {
		if s != "" {
			b.WriteString(s + ": ")
		}
	}
	return b.String() + e.Err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

// Load reads the configuration file at path over Default, and validates it.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return Parse(path, data)
}

// Parse reads data, the configuration file named file, over Default, and
// validates it.
func Parse(file string, data []byte) (Config, error) {
	c := Default()
	if err := Decode(file, data, &c); err != nil {
		return Config{}, err
	}
	if err := c.Validate(); err != nil {
		return Config{}, inFile(err, file)
	}
	return c, nil
}

// Decode reads data, the configuration file named file, over c, without
// validating it: a caller that sets more values (from flags) validates
// the result. Unknown and duplicate keys are errors.
func Decode(file string, data []byte, c *Config) error {
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return &FieldError{File: file, Err: err}
	}
	if strings.TrimSpace(string(j)) == "null" {
		return nil // an empty file: the defaults
	}
	// kjson names the path of each unknown key; encoding/json, the path
	// of a value of the wrong type. Neither stops at the first.
	var scratch Config
	strict, _ := kjson.UnmarshalStrict(j, &scratch)
	var errs []error
	for _, s := range strict {
		var fe kjson.FieldError
		if errors.As(s, &fe) {
			errs = append(errs, &FieldError{File: file, Path: fe.FieldPath(), Err: ErrUnknownKey})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var typeErr *json.UnmarshalTypeError
	switch err := json.Unmarshal(j, c); {
	case errors.As(err, &typeErr):
		return &FieldError{File: file, Path: typeErr.Field, Err: fmt.Errorf("want %s, got %s", kindName(typeErr.Type), typeErr.Value)}
	case err != nil:
		return &FieldError{File: file, Err: err}
	}
	return nil
}

// kindName names what a value of type t is written as.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "a map"
	}
	return t.String()
}

// inFile sets the file of the FieldErrors in err.
func inFile(err error, file string) error {
	var fe *FieldError
	if errors.As(err, &fe) && fe.File == "" {
		for _, e := range Fields(err) {
			e.File = file
		}
	}
	return err
}

// Fields returns the FieldErrors err holds: itself, or those it joins.
func Fields(err error) []*FieldError {
	var fe *FieldError
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var all []*FieldError
		for _, e := range joined.Unwrap() {
			all = append(all, Fields(e)...)
		}
		return all
	}
	if errors.As(err, &fe) {
		return []*FieldError{fe}
	}
	return nil
}
