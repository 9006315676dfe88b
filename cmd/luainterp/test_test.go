package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const suites = "../../testdata/suites"

// durations matches the times in `luainterp test` output, which vary.
var durations = regexp.MustCompile(`\(\d+\.\d\ds\)`)

// runTest runs `luainterp test` in-process and returns its standard output
// with durations set to zero, its standard error and its exit status.
func runTest(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	r := run(t, "", append([]string{"test"}, args...)...)
	return durations.ReplaceAllString(r.stdout, "(0.00s)"), r.stderr, r.code
}

func TestTestPassing(t *testing.T) {
	stdout, stderr, code := runTest(t, suites+"/passing")
	assert.Equal(t, `--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretDependency/dependencies in any order (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretDependency/no dependencies (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/rolled out is healthy (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/stale generation is unhealthy (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/no status is unhealthy (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretReplica/requests of app and init containers, quantities written another way (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretReplica/replicas default to one (0.00s)
    unchecked: requires
--- PASS: apps.kruise.io/v1alpha1/CloneSet/ReviseReplica/revise sets the replica count (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/AggregateStatus/aggregate sums counters and stamps conditions (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretStatus/reflect keeps the counters and the generation (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/Retain/retain keeps the member's pause (0.00s)
11 passed, 0 failed
`, stdout)
	assert.Empty(t, stderr)
	assert.Equal(t, 0, code)
}

func TestTestFailing(t *testing.T) {
	stdout, stderr, code := runTest(t, "--timeout", "100ms", suites+"/failing/widget")
	f := suites + "/failing/widget"
	assert.Equal(t, `--- PASS: `+f+`/InterpretHealth/ready is healthy (0.00s)
--- FAIL: `+f+`/InterpretHealth/degraded is expected healthy (0.00s)
    `+f+`/testdata/cases.yaml:11: document 2
    diff (-expected +actual):
        healthy:
        - true
        + false
    print output:
        phase: Degraded
--- FAIL: `+f+`/InterpretReplica/output key the operation does not produce (0.00s)
    `+f+`/testdata/cases.yaml:13: document 3
    output key "replicas" is not a result of InterpretReplica, which produces replica, requires
--- FAIL: `+f+`/InterpretReplica/quantities that differ (0.00s)
    `+f+`/testdata/cases.yaml:26: document 4
    diff (-expected +actual):
        requires.resourceRequest.cpu:
        - "2"
        + 1500m
--- FAIL: `+f+`/Retain/operation the customization does not define (0.00s)
    `+f+`/testdata/cases.yaml:28: document 5
    customizations.yaml defines no retention (Retain) for example.io/v1, Kind=Widget
--- FAIL: `+f+`/InterpretStatus/script error (0.00s)
    `+f+`/testdata/cases.yaml:33: document 6
    InterpretStatus failed: `+f+`/customizations.yaml:26: document 1 "widget": spec.customizations.statusReflection.luaScript: Lua line 3: widget has no status
--- PASS: `+f+`/InterpretStatus/an error is expected (0.00s)
--- FAIL: `+f+`/InterpretStatus/an error that does not come (0.00s)
    `+f+`/testdata/cases.yaml:45: document 8
    InterpretStatus succeeded, expected an error
--- FAIL: `+f+`/InterpretComponent/a script that never returns (0.00s)
    `+f+`/testdata/cases.yaml:50: document 9
    InterpretComponent failed: `+f+`/customizations.yaml:42: document 1 "widget": spec.customizations.componentResource.luaScript: Lua line 2: script ran past its deadline of 100ms
--- FAIL: `+f+`/InterpretDependency/one dependency differs (0.00s)
    `+f+`/testdata/dependencies.yaml:12: document 1
    diff (-expected +actual):
        dependencies[1].name:
        - gamma
        + delta
2 passed, 8 failed
`, stdout)
	assert.Empty(t, stderr)
	assert.Equal(t, 1, code)
}

func TestTestNotLoaded(t *testing.T) {
	stdout, stderr, code := runTest(t, suites+"/broken", "no-such-folder")
	b := suites + "/broken"
	assert.Equal(t, `--- PASS: bad-case/InterpretHealth/ready is healthy (0.00s)
--- PASS: bad-case/InterpretHealth/misspelt output (0.00s)
    unchecked: healthy
--- FAIL: bad-case/testdata/unparsable.yaml document 1 (0.00s)
    `+b+`/bad-case/testdata/unparsable.yaml:2: document 1
    invalid YAML: did not find expected ',' or ']'
--- FAIL: example.io/v1beta1/Widget (not loaded)
    `+b+`/example.io/v1beta1/Widget/customizations.yaml:2: document 1 "widget": spec.target: does not agree with the folder example.io/v1beta1/Widget: the target has version v1, the folder v1beta1
--- FAIL: syntax-error (not loaded)
    `+b+`/syntax-error/customizations.yaml:29: document 2 "widget-health": spec.customizations.healthInterpretation.luaScript: Lua line 2: syntax error: the script ends before the "if" of this line has its "end"
--- FAIL: no-such-folder (not loaded)
    no-such-folder: no such file or directory
2 passed, 1 failed, 3 suites not loaded
`, stdout)
	assert.Equal(t, "warning: "+b+`/bad-case/testdata/health.yaml:10: document 2 "misspelt output": ouput: unknown field, did you mean "output"? (ignored)`+"\n", stderr)
	assert.Equal(t, 1, code)
}

func TestTestStrict(t *testing.T) {
	stdout, stderr, code := runTest(t, "--strict", suites+"/broken/bad-case")
	b := suites + "/broken/bad-case"
	assert.Equal(t, `--- PASS: `+b+`/InterpretHealth/ready is healthy (0.00s)
--- FAIL: `+b+`/InterpretHealth/misspelt output (0.00s)
    `+b+`/testdata/health.yaml:7: document 2
    line 10: ouput: unknown field, did you mean "output"?
--- FAIL: `+b+`/testdata/unparsable.yaml document 1 (0.00s)
    `+b+`/testdata/unparsable.yaml:2: document 1
    invalid YAML: did not find expected ',' or ']'
1 passed, 2 failed
`, stdout, "the misspelt case fails alone; the suite's other cases run")
	assert.Empty(t, stderr)
	assert.Equal(t, 1, code)
}

// TestTestStrictRun: a case --strict refuses keeps its name, so --run
// selects it and it fails; it is not skipped into a passing run.
func TestTestStrictRun(t *testing.T) {
	stdout, _, code := runTest(t, "--strict", "--run", "misspelt", suites+"/broken/bad-case")
	assert.Contains(t, stdout, "--- FAIL: "+suites+"/broken/bad-case/InterpretHealth/misspelt output (0.00s)\n")
	assert.Contains(t, stdout, "\n0 passed, 1 failed, 2 skipped\n")
	assert.Equal(t, 1, code)
}

// TestTestRunNoMatch: a --run that selects no case is an error, not a
// run of zero cases that passes.
func TestTestRunNoMatch(t *testing.T) {
	r := run(t, "", "test", "--run", "Healthy/rolled", suites+"/passing")
	assert.Contains(t, r.stdout, "0 passed, 0 failed, 11 skipped\n")
	require.EqualError(t, r.err, `--run "Healthy/rolled" selects none of the 11 cases found `+
		`(their names are suite/Operation/name, such as "apps.kruise.io/v1alpha1/CloneSet/InterpretDependency/dependencies in any order")`)
	assert.Equal(t, 1, r.code)
}

// TestTestRunPathIndependent: a suite laid out as <group>/<version>/<Kind>
// has the same name whichever path leads to it, so one --run selects the
// same cases from the tree, the group's folder or the suite's own.
func TestTestRunPathIndependent(t *testing.T) {
	for _, path := range []string{"", "/apps.kruise.io", "/apps.kruise.io/v1alpha1/CloneSet"} {
		t.Run(path, func(t *testing.T) {
			stdout, _, code := runTest(t, "--run", `^apps\.kruise\.io/v1alpha1/CloneSet/InterpretHealth/`, suites+"/passing"+path)
			assert.Contains(t, stdout, "--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/rolled out is healthy (0.00s)\n")
			assert.Contains(t, stdout, "\n3 passed, 0 failed, 8 skipped\n")
			assert.Equal(t, 0, code)
		})
	}
}

func TestTestRun(t *testing.T) {
	stdout, _, code := runTest(t, "--run", `Health/(rolled|stale)`, suites+"/passing")
	assert.Equal(t, `--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/rolled out is healthy (0.00s)
--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/stale generation is unhealthy (0.00s)
2 passed, 0 failed, 9 skipped
`, stdout)
	assert.Equal(t, 0, code)
}

// TestTestRunAnchored: an anchored --run loads only the suites whose
// names it can match, so broken suites it cannot match do not fail it.
func TestTestRunAnchored(t *testing.T) {
	stdout, _, code := runTest(t, "--run", "^bad-case/InterpretHealth/", suites+"/broken")
	assert.Equal(t, `--- PASS: bad-case/InterpretHealth/ready is healthy (0.00s)
--- PASS: bad-case/InterpretHealth/misspelt output (0.00s)
    unchecked: healthy
2 passed, 0 failed, 1 skipped
`, stdout)
	assert.Equal(t, 0, code)

	stdout, _, code = runTest(t, "--run", "bad-case/InterpretHealth/", suites+"/broken")
	assert.Contains(t, stdout, "--- FAIL: syntax-error (not loaded)\n", "unanchored, every suite is loaded")
	assert.Equal(t, 1, code)
}

func TestTestJSON(t *testing.T) {
	stdout, _, code := runTest(t, "-o", "json", "--run", "degraded|Dependency", suites+"/failing")
	assert.Equal(t, 1, code)
	var got struct {
		Passed, Failed, Skipped, NotLoaded int
		Suites                             []struct {
			Name  string
			Cases []struct {
				Name, Status, Output, File string
				Line                       int
				Differences                []map[string]any
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), "the whole output is one JSON document")
	assert.Equal(t, []int{0, 2, 8, 0}, []int{got.Passed, got.Failed, got.Skipped, got.NotLoaded})
	require.Len(t, got.Suites, 1)
	assert.Equal(t, "widget", got.Suites[0].Name)
	degraded := got.Suites[0].Cases[1]
	assert.Equal(t, "widget/InterpretHealth/degraded is expected healthy", degraded.Name)
	assert.Equal(t, "fail", degraded.Status)
	assert.Equal(t, suites+"/failing/widget/testdata/cases.yaml", degraded.File)
	assert.Equal(t, 7, degraded.Line)
	assert.Equal(t, "phase: Degraded\n", degraded.Output)
	assert.Equal(t, []map[string]any{{"path": "healthy", "kind": "changed", "expected": true, "actual": false}}, degraded.Differences)
}

func TestTestJUnit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.xml")
	stdout, _, code := runTest(t, "--junit", file, "--timeout", "100ms", suites+"/failing", suites+"/broken/syntax-error")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "2 passed, 8 failed, 1 suite not loaded\n", "the text report is still written")

	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var got struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(data, &got))
	assert.Equal(t, []int{11, 8, 1}, []int{got.Tests, got.Failures, got.Errors})
	require.Len(t, got.Suites, 2)
	degraded := got.Suites[0].Cases[1]
	assert.Equal(t, "InterpretHealth/degraded is expected healthy", degraded.Name)
	require.NotNil(t, degraded.Failure)
	assert.Equal(t, "output differs from the expected at 1 path", degraded.Failure.Message)
	assert.Equal(t, "phase: Degraded\n", degraded.SystemOut)
	broken := got.Suites[1]
	assert.Equal(t, suites+"/broken/syntax-error", broken.Name)
	require.NotNil(t, broken.Cases[0].Error)
	assert.Contains(t, broken.Cases[0].Error.Message, "syntax error")
}

func TestTestCoverage(t *testing.T) {
	stdout, _, code := runTest(t, "--coverage-listing", "--run", "Health|Dependency", suites+"/failing")
	assert.Equal(t, 1, code)
	f := suites + "/failing/widget/customizations.yaml"
	c := suites + "/failing/widget/testdata"
	assert.Equal(t, `--- PASS: widget/InterpretHealth/ready is healthy (0.00s)
--- FAIL: widget/InterpretHealth/degraded is expected healthy (0.00s)
    `+c+`/cases.yaml:11: document 2
    diff (-expected +actual):
        healthy:
        - true
        + false
    print output:
        phase: Degraded
--- FAIL: widget/InterpretDependency/one dependency differs (0.00s)
    `+c+`/dependencies.yaml:12: document 1
    diff (-expected +actual):
        dependencies[1].name:
        - gamma
        + delta
coverage:
    widget: widget replicaResource: 1 of 2 lines (50.0%) `+f+`:13
           1      1 | function GetReplicas(obj)
           2  ##### |   return obj.spec.replicas, {resourceRequest = {cpu = obj.spec.cpu}}
           3      - | end
    widget: widget componentResource: 1 of 2 lines (50.0%) `+f+`:41
           1      1 | function GetComponents(obj)
           2  ##### |   while true do end
           3      - | end
    widget: widget statusReflection: 1 of 4 lines (25.0%), 0 of 2 branches `+f+`:24
           1      1 | function ReflectStatus(obj)
           2  ##### |   if obj.status == nil then
           3  ##### |     error("widget has no status")
           4      - |   end
           5  ##### |   return obj.status
           6      - | end
    widget: widget healthInterpretation: 3 of 3 lines (100.0%) `+f+`:18
           1      3 | function InterpretHealth(obj)
           2      2 |   print("phase: " .. obj.status.phase)
           3      2 |   return obj.status.phase == "Ready"
           4      - | end
    widget: widget dependencyInterpretation: 5 of 5 lines (100.0%) `+f+`:32
           1      2 | function GetDependencies(obj)
           2      1 |   local refs = {}
           3      1 |   for _, name in ipairs(obj.spec.configMaps or {}) do
           4      3 |     table.insert(refs, {apiVersion = "v1", kind = "ConfigMap", namespace = obj.metadata.namespace, name = name})
           5      - |   end
           6      1 |   return refs
           7      - | end
total: 11 of 16 lines (68.8%), 2 of 5 hooks exercised
hooks no case exercises:
    widget: widget replicaResource (GetReplicas) `+f+`:13
    widget: widget componentResource (GetComponents) `+f+`:41
    widget: widget statusReflection (ReflectStatus) `+f+`:24
1 passed, 2 failed, 7 skipped
`, stdout)
}

func TestTestDefaultPath(t *testing.T) {
	suite, err := filepath.Abs(suites + "/passing")
	require.NoError(t, err)
	t.Chdir(t.TempDir())

	// One kind's cases: that every bundled case passes is TestSuites' check
	// in package scripts; here, that the embedded ones are found and run.
	stdout, _, code := runTest(t, "--run", `^apps\.kruise\.io/v1alpha1/CloneSet/`)
	assert.Equal(t, 0, code, "the suites embedded in the binary pass")
	assert.Contains(t, stdout, "--- PASS: apps.kruise.io/v1alpha1/CloneSet/")
	assert.Regexp(t, "\n[1-9][0-9]* passed, 0 failed\n$", stdout, "the other suites are not loaded")

	require.NoError(t, os.CopyFS("scripts", os.DirFS(suite)))
	stdout, _, code = runTest(t, "--junit", "report.xml")
	assert.Equal(t, 0, code, "a scripts/ folder here is tested instead")
	assert.Contains(t, stdout, "--- PASS: apps.kruise.io/v1alpha1/CloneSet/InterpretHealth/rolled out is healthy (0.00s)\n")
	assert.Regexp(t, "\n11 passed, 0 failed\n$", stdout)
	assert.FileExists(t, "report.xml")
}

func TestTestBadFlags(t *testing.T) {
	tests := map[string][]string{
		"--run: error parsing regexp: missing closing ): `(`": {"--run", "("},
		`--output: unknown format "yaml": want text or json`:  {"-o", "yaml"},
	}
	for want, args := range tests {
		t.Run(want, func(t *testing.T) {
			r := run(t, "", append(append([]string{"test"}, args...), suites+"/passing")...)
			require.EqualError(t, r.err, want)
		})
	}
}

// TestTestKarmadaSuite runs a suite written as for Karmada: no status
// items reach the script as nil, an empty list as an empty table, objects
// written inside status items are ignored (with warnings), and a
// dependency returned twice is one.
func TestTestKarmadaSuite(t *testing.T) {
	stdout, stderr, code := runTest(t, suites+"/karmada")
	assert.Equal(t, `--- PASS: widget/AggregateStatus/no status items leave the object as it is (0.00s)
--- PASS: widget/AggregateStatus/statusItems with no value are none (0.00s)
--- PASS: widget/AggregateStatus/an empty list initialises the status (0.00s)
--- PASS: widget/AggregateStatus/objects written inside status items are ignored, as by Karmada (0.00s)
--- PASS: widget/InterpretDependency/a reference returned twice is one dependency (0.00s)
5 passed, 0 failed
`, stdout)
	f := suites + "/karmada/widget/testdata/aggregate.yaml"
	doc := `document 4 "objects written inside status items are ignored, as by Karmada"`
	assert.Equal(t, "warning: "+f+":29: "+doc+": statusItems[0].apiVersion: unknown field (ignored)\n"+
		"warning: "+f+":30: "+doc+": statusItems[0].kind: unknown field (ignored)\n"+
		"warning: "+f+":31: "+doc+": statusItems[0].metadata: unknown field (ignored)\n", stderr)
	assert.Equal(t, 0, code)
}

func TestTestJSONUnreadableFile(t *testing.T) {
	stdout, _, code := runTest(t, "-o", "json", suites+"/broken/bad-case")
	assert.Equal(t, 1, code)
	var got struct {
		Suites []struct {
			Cases []map[string]any
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Suites, 1)
	require.Len(t, got.Suites[0].Cases, 3)
	unread := got.Suites[0].Cases[2]
	assert.Equal(t, suites+"/broken/bad-case/testdata/unparsable.yaml document 1", unread["name"])
	assert.Equal(t, "fail", unread["status"])
	assert.NotContains(t, unread, "operation", "a file that cannot be read has no operation")
	assert.Equal(t, []any{"invalid YAML: did not find expected ',' or ']'"}, unread["failures"])
}
