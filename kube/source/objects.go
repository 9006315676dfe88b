package source

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
)

// The resources a Source reads.
var (
	CustomizationResource = schema.GroupVersionResource{
		Group: "config.karmada.io", Version: "v1alpha1", Resource: "resourceinterpretercustomizations"}
	WebhookConfigurationResource = schema.GroupVersionResource{
		Group: "config.karmada.io", Version: "v1alpha1", Resource: "resourceinterpreterwebhookconfigurations"}
)

// The kinds of the objects a Source reads, as metrics and logs name them.
const (
	CustomizationKind        = customization.Kind
	WebhookConfigurationKind = webhook.ConfigurationKind
)

// ObjectName is how messages name an API object, in place of a file:
// "resourceinterpretercustomization/NAME".
func ObjectName(kind, name string) string { return strings.ToLower(kind) + "/" + name }

// Manifest returns the YAML of obj as a user wrote it: apiVersion, kind,
// metadata.name and the rest but status, so that the lines of a problem's
// position count from the top of that text.
func Manifest(obj *unstructured.Unstructured) ([]byte, error) {
	doc := make(map[string]any, len(obj.Object))
	for k, v := range obj.Object {
		switch k {
		case "metadata":
			doc[k] = map[string]any{"name": obj.GetName()}
		case "status":
		default:
			doc[k] = v
		}
	}
	return yaml.Marshal(doc)
}

// LoadCustomization decodes a ResourceInterpreterCustomization object and
// compiles its scripts on engine, checking that each defines its function:
// the Set it returns holds that one customization, ready for a Layer. The
// error is the same as loading the object from a file would give, with
// the object named as ObjectName names it.
func LoadCustomization(engine *luavm.Engine, obj *unstructured.Unstructured) (*customization.Set, error) {
	data, err := Manifest(obj)
	if err != nil {
		return nil, err
	}
	set, err := customization.Parse(ObjectName(CustomizationKind, obj.GetName()), data)
	if err != nil {
		return nil, err
	}
	if _, err := customization.NewLayer(engine, set); err != nil {
		return nil, err
	}
	return set, nil
}

// LoadWebhookConfiguration decodes and validates a
// ResourceInterpreterWebhookConfiguration object, and checks that a
// webhook layer can be made of it (its caBundles hold certificates).
func LoadWebhookConfiguration(obj *unstructured.Unstructured, opts ...client.Option) (*webhook.ResourceInterpreterWebhookConfiguration, error) {
	data, err := Manifest(obj)
	if err != nil {
		return nil, err
	}
	configs, err := webhook.Parse(ObjectName(WebhookConfigurationKind, obj.GetName()), data)
	switch {
	case err != nil:
		return nil, err
	case len(configs) != 1:
		return nil, fmt.Errorf("%s: want one configuration, got %d", ObjectName(WebhookConfigurationKind, obj.GetName()), len(configs))
	}
	if _, err := client.New(configs, opts...); err != nil {
		return nil, err
	}
	return configs[0], nil
}

// object is what a Source knows of one API object: the last version that
// loaded, and why the latest did not.
type object[T any] struct {
	good        T                       // the last version that loaded; the zero value when none did
	goodVersion string                  // its resourceVersion
	loaded      bool                    // whether a version loaded
	err         error                   // why the latest version did not load; nil when it did
	ref         *corev1.ObjectReference // the latest version, for its Events
}

// reference returns a reference to u, for an Event on it.
func reference(u *unstructured.Unstructured) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Name: u.GetName(),
		UID: u.GetUID(), ResourceVersion: u.GetResourceVersion()}
}
