package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

func healthCoverage() *ScriptCoverage {
	return &ScriptCoverage{
		Suite: "widget", Customization: "widget", Operation: interpreter.InterpretHealth,
		File: "widget/customizations.yaml", Line: 18,
		Source: "function InterpretHealth(obj)\n  if obj.status == nil then\n    return false\n  end\n  return obj.status.phase == \"Ready\"\nend\n",
		Hits:   map[int]int{1: 1, 2: 3, 3: 0, 5: 3}, Exercised: true,
	}
}

func TestWriteCoverage(t *testing.T) {
	scripts := []*ScriptCoverage{
		healthCoverage(),
		{Suite: "widget", Customization: "widget", Operation: interpreter.Retain, File: "widget/customizations.yaml",
			Source: "-- nothing to run\n", Hits: map[int]int{}},
	}
	var summary, listing bytes.Buffer
	WriteCoverage(&summary, scripts, false)
	assert.Equal(t, `coverage:
    widget: widget healthInterpretation: 3 of 4 lines (75.0%) widget/customizations.yaml:18
    widget: widget retention: 0 of 0 lines (100.0%) widget/customizations.yaml
total: 3 of 4 lines (75.0%), 1 of 2 hooks exercised
hooks no case exercises:
    widget: widget retention (Retain) widget/customizations.yaml
`, summary.String())

	WriteCoverage(&listing, scripts[:1], true)
	assert.Equal(t, `coverage:
    widget: widget healthInterpretation: 3 of 4 lines (75.0%) widget/customizations.yaml:18
           1      1 | function InterpretHealth(obj)
           2      3 |   if obj.status == nil then
           3  ##### |     return false
           4      - |   end
           5      3 |   return obj.status.phase == "Ready"
           6      - | end
total: 3 of 4 lines (75.0%), 1 of 1 hooks exercised
`, listing.String())
}

func TestWriteJSONCoverage(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, WriteJSON(&out, &Report{Coverage: []*ScriptCoverage{healthCoverage()}}))
	var got struct {
		Coverage []map[string]any `json:"coverage"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	assert.Equal(t, []map[string]any{{
		"suite": "widget", "customization": "widget", "operation": "InterpretHealth",
		"file": "widget/customizations.yaml", "line": float64(18),
		"hits":      map[string]any{"1": float64(1), "2": float64(3), "3": float64(0), "5": float64(3)},
		"exercised": true, "linesRun": float64(3), "lines": float64(4), "percent": float64(75),
	}}, got.Coverage)
}
