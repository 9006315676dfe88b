package podspec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// directCases are tolerations and node selectors, as JSON; plain says
// whether the direct read takes them (else the converter does).
var directCases = []struct {
	name        string
	toleration  string
	selector    string
	plain       bool
	plainSelect bool
}{
	{"plain", `{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule","tolerationSeconds":300}`,
		`{"nodeSelectorTerms":[{"matchExpressions":[{"key":"arch","operator":"In","values":["amd64","arm64"]}],
		"matchFields":[{"key":"metadata.name","operator":"NotIn","values":[]}]}]}`, true, true},
	{"empty", `{}`, `{}`, true, true},
	{"empty lists", `{"key":""}`, `{"nodeSelectorTerms":[{"matchExpressions":[]}]}`, true, true},
	{"unknown fields", `{"key":"k","extra":[1,2],"Key":"other"}`,
		`{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Exists","other":1}],"x":{}}],"y":null}`, true, true},
	{"nulls", `{"key":null,"tolerationSeconds":null}`, `{"nodeSelectorTerms":null}`, false, false},
	{"a null term", `{"value":"v"}`, `{"nodeSelectorTerms":[null]}`, true, false},
	{"fractional seconds", `{"tolerationSeconds":1.5}`, `{"nodeSelectorTerms":[{"matchExpressions":[{"values":[1]}]}]}`, false, false},
	{"wrong types", `{"key":1,"effect":true}`, `{"nodeSelectorTerms":{"a":1}}`, false, false},
	{"a string for a list", `{"operator":["Equal"]}`, `{"nodeSelectorTerms":[{"matchFields":"x"}]}`, false, false},
}

// converted is what the unstructured converter makes of m, or its error.
func converted[T any](m map[string]any) (*T, error) {
	into := new(T)
	return into, runtime.DefaultUnstructuredConverter.FromUnstructured(m, into)
}

// assertDirectMatchesConverter reads toleration and selector both ways:
// where the direct read takes one, it reads what the converter reads.
func assertDirectMatchesConverter(t *testing.T, toleration, selector map[string]any) (plainToleration, plainSelector bool) {
	t.Helper()
	var tol corev1.Toleration
	if plainToleration = readToleration(toleration, &tol); plainToleration {
		want, err := converted[corev1.Toleration](toleration)
		require.NoError(t, err)
		assert.Equal(t, *want, tol)
	}
	var sel corev1.NodeSelector
	if plainSelector = readNodeSelector(selector, &sel); plainSelector {
		want, err := converted[corev1.NodeSelector](selector)
		require.NoError(t, err)
		assert.Equal(t, *want, sel)
	}
	return plainToleration, plainSelector
}

func TestDirectMatchesConverter(t *testing.T) {
	for _, tt := range directCases {
		t.Run(tt.name, func(t *testing.T) {
			var toleration, selector map[string]any
			require.NoError(t, utiljson.Unmarshal([]byte(tt.toleration), &toleration))
			require.NoError(t, utiljson.Unmarshal([]byte(tt.selector), &selector))
			plainToleration, plainSelector := assertDirectMatchesConverter(t, toleration, selector)
			assert.Equal(t, tt.plain, plainToleration, "toleration read directly")
			assert.Equal(t, tt.plainSelect, plainSelector, "selector read directly")
		})
	}
}

// FuzzDirectMatchesConverter checks the direct read against the
// converter on arbitrary objects.
func FuzzDirectMatchesConverter(f *testing.F) {
	for _, tt := range directCases {
		f.Add(tt.toleration, tt.selector)
	}
	f.Fuzz(func(t *testing.T, toleration, selector string) {
		var tol, sel map[string]any
		if utiljson.Unmarshal([]byte(toleration), &tol) != nil || utiljson.Unmarshal([]byte(selector), &sel) != nil {
			return
		}
		assertDirectMatchesConverter(t, tol, sel)
	})
}
