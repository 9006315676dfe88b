package podspec_test

import (
	"encoding/json"
	"fmt"

	"github.com/luainterp/luainterp/interpreter/podspec"
)

func ExampleRequirements() {
	podSpec := map[string]any{
		"nodeSelector": map[string]any{"disk": "ssd"},
		"containers": []any{
			map[string]any{"name": "web", "resources": map[string]any{
				"requests": map[string]any{"cpu": "250m", "memory": "256Mi"},
				"limits":   map[string]any{"cpu": "1", "nvidia.com/gpu": int64(1)},
			}},
		},
		"initContainers": []any{
			map[string]any{"name": "migrate", "resources": map[string]any{
				"requests": map[string]any{"cpu": 2.5}, // a Lua number
			}},
		},
	}
	requirements, err := podspec.Requirements(podSpec)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(requirements)
	fmt.Println(string(out))
	// Output: {"nodeClaim":{"nodeSelector":{"disk":"ssd"}},"resourceRequest":{"cpu":"2500m","memory":"256Mi","nvidia.com/gpu":"1"}}
}

func ExampleDependencies() {
	podSpec := map[string]any{
		"serviceAccountName": "builder",
		"containers": []any{
			map[string]any{"envFrom": []any{map[string]any{"configMapRef": map[string]any{"name": "settings"}}}},
		},
		"volumes": []any{
			map[string]any{"name": "tls", "secret": map[string]any{"secretName": "web-tls"}},
			map[string]any{"name": "data", "persistentVolumeClaim": map[string]any{"claimName": "web-data"}},
		},
	}
	refs, err := podspec.Dependencies(podSpec, "shop")
	if err != nil {
		panic(err)
	}
	for _, ref := range refs {
		fmt.Println(ref.APIVersion, ref.Kind, ref.Namespace, ref.Name)
	}
	// Output:
	// v1 ConfigMap shop settings
	// v1 Secret shop web-tls
	// v1 ServiceAccount shop builder
	// v1 PersistentVolumeClaim shop web-data
}
