package deploy_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/testenv"
)

// The monitoring files: the PrometheusRule, its promtool unit tests, the
// dashboards and the runbooks the alerts link.
const (
	prometheusRule = "monitoring/prometheusrule.yaml"
	alertTests     = "monitoring/alerts_test.yaml"
	runbooks       = "../docs/monitoring.md"
)

// ruleGroups returns the rule groups of the PrometheusRule, as a
// Prometheus rule file holds them.
func ruleGroups(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(prometheusRule)
	require.NoError(t, err)
	var rule struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Spec       struct {
			Groups []any `json:"groups"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal(data, &rule))
	require.Equal(t, "monitoring.coreos.com/v1 PrometheusRule", rule.APIVersion+" "+rule.Kind)
	out, err := yaml.Marshal(map[string]any{"groups": rule.Spec.Groups})
	require.NoError(t, err)
	return out
}

// TestAlertsPromtool runs promtool check rules and promtool test rules on
// the PrometheusRule's groups, written to a rule file beside a copy of
// alerts_test.yaml.
func TestAlertsPromtool(t *testing.T) {
	bin := testenv.LookPath(t, "LUAINTERP_REQUIRE_PROMTOOL", "apt-get install prometheus", "promtool")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rules.yaml"), ruleGroups(t), 0o644))
	tests, err := os.ReadFile(alertTests)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "alerts_test.yaml"), tests, 0o644))
	for _, args := range [][]string{{"check", "rules", "rules.yaml"}, {"test", "rules", "alerts_test.yaml"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "promtool %s:\n%s", strings.Join(args, " "), out)
	}
}

// alertRule is what the tests read of a rule.
type alertRule struct {
	Alert       string            `json:"alert"`
	Annotations map[string]string `json:"annotations"`
}

// TestAlertsTestedAndDocumented checks that every alert has a unit test
// where it fires, a summary and description, and a runbook_url whose
// anchor is a heading of docs/monitoring.md.
func TestAlertsTestedAndDocumented(t *testing.T) {
	var file struct {
		Groups []struct {
			Rules []alertRule `json:"rules"`
		} `json:"groups"`
	}
	require.NoError(t, yaml.Unmarshal(ruleGroups(t), &file))
	data, err := os.ReadFile(alertTests)
	require.NoError(t, err)
	var tests struct {
		Tests []struct {
			AlertRuleTest []struct {
				Alertname string `json:"alertname"`
				ExpAlerts []any  `json:"exp_alerts"`
			} `json:"alert_rule_test"`
		} `json:"tests"`
	}
	require.NoError(t, yaml.Unmarshal(data, &tests))
	fires := map[string]bool{}
	for _, test := range tests.Tests {
		for _, a := range test.AlertRuleTest {
			fires[a.Alertname] = fires[a.Alertname] || len(a.ExpAlerts) > 0
		}
	}
	doc, err := os.ReadFile(runbooks)
	require.NoError(t, err)
	headings := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#+ (\S.*)$`).FindAllStringSubmatch(string(doc), -1) {
		headings[strings.ToLower(strings.TrimSpace(m[1]))] = true
	}
	n := 0
	for _, g := range file.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			n++
			t.Run(r.Alert, func(t *testing.T) {
				assert.True(t, fires[r.Alert], "a test in %s where it fires", alertTests)
				assert.NotEmpty(t, r.Annotations["summary"])
				assert.NotEmpty(t, r.Annotations["description"])
				want := "https://github.com/luainterp/luainterp/blob/main/docs/monitoring.md#" + strings.ToLower(r.Alert)
				assert.Equal(t, want, r.Annotations["runbook_url"])
				assert.True(t, headings[strings.ToLower(r.Alert)], "a heading %q in %s", r.Alert, runbooks)
			})
		}
	}
	assert.Equal(t, 7, n, "alerts")
}

// TestDashboards checks that each dashboard is JSON, has a uid and title,
// and that its panels' ids, those inside rows too, are unique.
func TestDashboards(t *testing.T) {
	files, err := filepath.Glob("monitoring/dashboard-*.json")
	require.NoError(t, err)
	require.Len(t, files, 2)
	uids := map[string]string{}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var d dashboard
			require.NoError(t, json.Unmarshal(data, &d), "valid JSON")
			require.NotEmpty(t, d.UID)
			require.NotEmpty(t, d.Title)
			assert.Empty(t, uids[d.UID], "uid %q also used by %s", d.UID, uids[d.UID])
			uids[d.UID] = file
			seen := map[int]string{}
			for _, p := range d.allPanels() {
				assert.NotZero(t, p.ID, "panel %q has an id", p.Title)
				if other, dup := seen[p.ID]; dup {
					t.Errorf("panel id %d of %q is also that of %q", p.ID, p.Title, other)
				}
				seen[p.ID] = p.Title
				if p.Type != "row" {
					assert.NotEmpty(t, p.Targets, "panel %q queries something", p.Title)
				}
			}
		})
	}
}

// dashboard is what the tests read of a Grafana dashboard.
type dashboard struct {
	UID    string  `json:"uid"`
	Title  string  `json:"title"`
	Panels []panel `json:"panels"`
}

type panel struct {
	ID      int    `json:"id"`
	Type    string `json:"type"`
	Title   string `json:"title"`
	Panels  []panel
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
}

// allPanels returns the panels of d, those of collapsed rows too.
func (d dashboard) allPanels() []panel {
	var out []panel
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			out = append(out, p)
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return out
}
