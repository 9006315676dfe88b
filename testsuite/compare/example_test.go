package compare_test

import (
	"fmt"

	"github.com/luainterp/luainterp/testsuite/compare"
)

func ExampleDiff() {
	expected := map[string]any{
		"resourceRequest": map[string]any{"cpu": "1", "memory": "1Gi"},
		"conditions": []any{
			map[string]any{"type": "Ready", "lastTransitionTime": compare.Exclude},
		},
		"priorityClassName": "high",
	}
	actual := map[string]any{
		"resourceRequest": map[string]any{"cpu": "1000m", "memory": "1024Mi"},
		"conditions": []any{
			map[string]any{"type": "Ready", "lastTransitionTime": "2026-11-29T10:00:00Z"},
		},
		"priorityClassName": "low",
	}
	fmt.Print(compare.Format(compare.Diff(expected, actual, compare.At("requires"))))
	// Output:
	// requires.priorityClassName:
	// - high
	// + low
}
