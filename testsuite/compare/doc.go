// Package compare finds where an actual result differs from the expected
// output of a test case, the way `luainterp test` judges a case.
//
// Both sides are JSON values: map[string]any, []any, string, int64,
// float64, bool or nil, as sigs.k8s.io/yaml and k8s.io/apimachinery's JSON
// decoder produce them (Normalize turns any JSON-encodable Go value into
// one). The rules:
//
//   - Maps are equal when they have the same keys with equal values; a key
//     with a null value and an absent key differ.
//   - Lists are compared element by element, except where Unordered
//     applies: then each expected element is matched to an equal actual
//     element wherever it sits, and unmatched ones are compared in order.
//   - Numbers compare by value: 2 (an integer) equals 2.0 (a float).
//   - Two strings that both parse as Kubernetes quantities compare as
//     quantities: "1" equals "1000m", "1Gi" equals "1024Mi". This holds at
//     any depth, so a quantity is recognised wherever it sits (resource
//     requests, status capacities, annotations). A string never equals a
//     number: '8' and 8 differ, as they do to the Kubernetes API.
//   - The string "{{EXCLUDE}}" anywhere in the expected value removes that
//     path, map key or list index, from both sides: use it for timestamps
//     and other values a test cannot know.
//
// Paths are written as in kubectl's JSONPath, without the leading dot:
// status.conditions[0].type, metadata.labels["app.kubernetes.io/name"].
// In an unordered list the index is the expected element's; an actual
// element matched to no expected one is reported after the expected ones.
package compare
