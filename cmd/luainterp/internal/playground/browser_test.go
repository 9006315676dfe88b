package playground_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
	"github.com/luainterp/luainterp/internal/testenv"
)

// The customization of the browser test: the YAML around the script,
// set, then the script, typed; GetReplicas reads a field the Widget does
// not have (line 13), then the fix.
const (
	customizationHead = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1alpha1
    kind: Widget
  customizations:
    replicaResource:
      luaScript: |
`
	typedScript = `        function GetReplicas(obj)
          return obj.spec.size.count, {}
        end
`
	mistake = "size.count"
	fix     = "replicas"
)

// chromium returns the browser to drive: $LUAINTERP_CHROMIUM, else the
// first of Debian's and others' names on $PATH; without one, the test
// skips, or fails under LUAINTERP_REQUIRE_BROWSER=1 (CI).
func chromium(t *testing.T) string {
	t.Helper()
	if path := os.Getenv("LUAINTERP_CHROMIUM"); path != "" {
		return path
	}
	return testenv.LookPath(t, "LUAINTERP_REQUIRE_BROWSER", "apt-get install chromium",
		"chromium", "chromium-browser", "google-chrome", "headless-shell")
}

// browser starts a headless Chromium for the test, with a fresh profile
// and nothing that reaches the network.
func browser(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1600, 1000),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	return ctx
}

// waitText waits until the element of selector holds text (an editor, its
// value), and returns its whole text.
func waitText(selector, text string) chromedp.Action[string] {
	expr := `(() => { const e = document.querySelector(` + jsString(selector) + `);
		const s = e && (e.tagName === "TEXTAREA" || e.tagName === "INPUT" ? e.value : e.textContent);
		return s && s.includes(` + jsString(text) + `) ? s : null; })()`
	return chromedp.Poll[string](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}

// TestPlaygroundInBrowser drives the page in Chromium: it types a script
// with a mistake and sees the line marked and the message, fixes it and
// sees the answer, saves the answer as a test case and runs it.
func TestPlaygroundInBrowser(t *testing.T) {
	ctx := browser(t)
	srv := httptest.NewServer(playground.New())
	t.Cleanup(srv.Close)
	run := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, steps...))
	}
	text := func(a chromedp.Action[string]) string {
		t.Helper()
		s, err := chromedp.Run(ctx, a)
		require.NoError(t, err)
		return s
	}
	const customization = "#customization textarea"
	const replicaAnswer = `.answer[data-op="InterpretReplica"]`

	run(chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
	text(waitText(replicaAnswer+" pre.result", "replica: 3"))

	clear := func(selector string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+selector+`').value = ''`))
		require.NoError(t, err)
	}
	_, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+customization+`').value = `+jsString(customizationHead)))
	require.NoError(t, err)
	run(chromedp.SendKeys(chromedp.CSS(customization), typedScript))
	msg := text(waitText(replicaAnswer+" .error .message", "attempt to index field 'size' (a nil value)"))
	require.Equal(t, `customization:13: document 1 "widget": spec.customizations.replicaResource.luaScript: Lua line 2: attempt to index field 'size' (a nil value)`, msg)
	require.Equal(t, "13", text(chromedp.Text(chromedp.CSS("#customization .gutter div.err"))), "the line is marked")

	start := len(customizationHead) + strings.Index(typedScript, mistake)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+customization+`').setSelectionRange(`+
		itoa(start)+`, `+itoa(start+len(mistake))+`) === undefined`))
	require.NoError(t, err)
	run(chromedp.SendKeys(chromedp.CSS(customization), fix))
	require.Equal(t, "replica: 3\nrequires: {}\n", text(waitText(replicaAnswer+" pre.result", "replica: 3")))
	run(chromedp.WaitNotPresent(chromedp.CSS("#customization .gutter div.err")))

	clear("#tests textarea")
	run(chromedp.SendKeys(chromedp.CSS("#save-name"), "three replicas"), chromedp.Click(chromedp.CSS("#save-case")))
	text(waitText("#tests textarea", "name: three replicas"))
	require.Equal(t, "1 passed, 0 failed", text(waitText("#test-summary", "passed")))
	run(chromedp.Click(chromedp.CSS("#run-tests")))
	require.Equal(t, "1 passed, 0 failed", text(waitText("#test-summary", "passed")))
	require.Equal(t, "PASSInterpretReplica/three replicas", strings.Fields(text(chromedp.Text(chromedp.CSS("#test-results .case.pass"))))[0]+
		strings.Join(strings.Fields(text(chromedp.Text(chromedp.CSS("#test-results .case.pass .name")))), " "))
	shaded := text(chromedp.Evaluate[string](`[...document.querySelectorAll('#customization .gutter div.hit')].map((e) => e.textContent).join(' ')`))
	require.Equal(t, "12 13", shaded, "the lines the case ran are shaded")

	if out := os.Getenv("LUAINTERP_PLAYGROUND_SCREENSHOT"); out != "" {
		screenshot(t, ctx, srv.URL, out)
	}
}

// screenshot writes a PNG of the starter page with its test cases run.
func screenshot(t *testing.T, ctx context.Context, url, path string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1600, 1000), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.Click(chromedp.CSS("#run-tests"))))
	_, err := chromedp.Run(ctx, waitText("#test-summary", "3 passed"))
	require.NoError(t, err)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("wrote %s", path)
}

func itoa(n int) string { return strconv.Itoa(n) }
