package api

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// WorkApplied is the type of the Work condition that says whether its
// manifests were applied to the member cluster.
const WorkApplied = "Applied"

// ManifestStatus is what the member side recorded about one manifest of a
// Work: the reflected status (InterpretStatus) and the health
// (InterpretHealth) of the object in the member cluster.
type ManifestStatus struct {
	Identifier ResourceIdentifier         `json:"identifier"`
	Status     *runtime.RawExtension      `json:"status,omitempty"`
	Health     interpreter.ResourceHealth `json:"health,omitempty"`
}

// ResourceIdentifier names the manifest a ManifestStatus is about: its
// index in the Work's manifests (Ordinal) and the object's coordinates.
type ResourceIdentifier struct {
	Ordinal   int    `json:"ordinal"`
	Group     string `json:"group"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	Resource  string `json:"resource"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}
