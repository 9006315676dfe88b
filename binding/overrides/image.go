package overrides

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/internal/jsonvalue"
)

// applyImage changes the images o selects: the one its predicate points at
// (predicate is its prepared replace), or else every regular container's
// image of a kind with a pod template.
func applyImage(obj *unstructured.Unstructured, o *api.ImageOverrider, predicate *objectPatch) error {
	if o.Predicate != nil {
		return applyImagePredicate(obj, o, predicate)
	}
	list, where, err := containers(obj.Object, obj.GetKind())
	if err != nil {
		return err
	}
	for _, c := range list {
		image, err := c.stringField(where, "image")
		if err != nil {
			return err
		}
		changed, err := overrideImage(image, o)
		if err != nil {
			return fmt.Errorf("%s[%d].image: %w", where, c.index, err)
		}
		c.fields["image"] = changed
	}
	return nil
}

// applyImagePredicate reads the image at the predicate's path (walked as
// plain "/"-separated keys and indices, without ~ escapes, as Karmada reads
// it) and writes the new one with an RFC 6902 replace at the same path.
func applyImagePredicate(obj *unstructured.Unstructured, o *api.ImageOverrider, replace *objectPatch) error {
	path := o.Predicate.Path
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("predicate path %q does not start with /", path)
	}
	s, err := walk(obj.Object, strings.Split(strings.Trim(path, "/"), "/"))
	if err != nil {
		return fmt.Errorf("predicate path %s: %w", path, err)
	}
	image, ok := s.get().(string)
	if !ok {
		return fmt.Errorf("predicate path %s: want a string, got %s", path, jsonvalue.Describe(s.get()))
	}
	changed, err := overrideImage(image, o)
	if err != nil {
		return fmt.Errorf("predicate path %s: %w", path, err)
	}
	value, err := json.Marshal(changed)
	if err != nil {
		return err
	}
	return replace.applyValue(obj, value)
}

func overrideImage(image string, o *api.ImageOverrider) (string, error) {
	ref, err := parseImage(image)
	if err != nil {
		return "", err
	}
	if err := ref.apply(o.Component, o.Operator, o.Value); err != nil {
		return "", err
	}
	return ref.String(), nil
}
