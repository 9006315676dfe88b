// The playground page: editors in, answers out, through the JSON API
// (docs/playground.md).
"use strict";

const OPERATIONS = ["InterpretReplica", "ReviseReplica", "InterpretComponent", "Retain",
  "AggregateStatus", "InterpretStatus", "InterpretHealth", "InterpretDependency"];
const OBJECT_ANSWERS = new Set(["ReviseReplica", "Retain", "AggregateStatus"]);

const $ = (sel) => document.querySelector(sel);
let editors = {};
let runSeq = 0;
let source = "";

async function post(path, body) {
  const resp = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await resp.json();
  if (!resp.ok) throw new Error((out.error && out.error.message) || resp.statusText);
  return out;
}

function debounce(fn, ms) {
  let t;
  return () => { clearTimeout(t); t = setTimeout(fn, ms); };
}

function runRequest() {
  return {
    customization: editors.customization.value,
    object: editors.object.value,
    observed: editors.observed.value,
    statusItems: editors.statusItems.value,
    replicas: Number($("#replicas").value) || 0,
  };
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// markErrors marks, in each editor, the lines the answers' errors point at.
function markErrors(results) {
  const marks = { customization: {}, object: {}, observed: {}, statusItems: {} };
  for (const a of results) {
    const e = a.error;
    if (e && e.line && marks[e.input]) marks[e.input][e.line] = "err";
  }
  for (const [name, m] of Object.entries(marks)) editors[name].setMarks("err", m);
}

function renderError(e) {
  const box = el("div", "error");
  box.appendChild(el("div", "message", e.message));
  if (e.line) {
    box.appendChild(el("div", "where", (e.input || "customization") + " line " + e.line +
      (e.luaLine ? " (Lua line " + e.luaLine + ")" : "")));
  }
  if (e.detail) box.appendChild(el("pre", "", e.detail));
  if (e.stack && e.stack.length) {
    const ul = el("ul", "stack");
    for (const f of e.stack) {
      const li = el("li");
      li.appendChild(document.createTextNode(f.function + " "));
      if (f.line) {
        const a = el("a", "", "line " + f.line);
        a.addEventListener("click", () => editors.customization.goTo(f.line));
        li.appendChild(a);
      }
      li.appendChild(document.createTextNode(" (Lua line " + f.luaLine + ")"));
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
  return box;
}

function renderAnswer(a) {
  const card = el("div", "answer");
  card.dataset.op = a.operation;
  const head = el("div", "head");
  head.appendChild(el("b", "", a.operation));
  head.appendChild(el("span", a.layer ? "badge" : "badge none", a.layer || "no hook"));
  if (a.layer) head.appendChild(el("span", "muted", a.durationMs.toFixed(2) + " ms"));
  card.appendChild(head);
  if (a.error) {
    card.classList.add("failed");
    card.appendChild(renderError(a.error));
  } else if (!a.layer) {
    card.classList.add("none");
    card.appendChild(el("pre", "", "no layer has a hook for this kind"));
  } else if (OBJECT_ANSWERS.has(a.operation) && a.input !== undefined) {
    card.appendChild(renderDiff(a.input || "", a.output || ""));
  } else {
    card.appendChild(el("pre", "result", a.text));
  }
  if (a.printed) card.appendChild(el("pre", "muted", "printed:\n" + a.printed));
  return card;
}

function renderDiff(before, after) {
  const pre = el("pre", "diff");
  const d = lineDiff(before, after);
  if (d === null) { pre.textContent = after; return pre; }
  if (!d.some((l) => l.op !== " ")) {
    pre.appendChild(el("div", "muted", "# the object comes back unchanged"));
    return pre;
  }
  for (const l of folded(d, 3)) {
    if (l.op === "~") pre.appendChild(el("div", "muted", "  ⋯ " + l.count + " unchanged line" + (l.count > 1 ? "s" : "")));
    else pre.appendChild(el("div", l.op === "+" ? "d-add" : l.op === "-" ? "d-del" : "", l.op + " " + l.text));
  }
  return pre;
}

async function runAll() {
  const seq = ++runSeq;
  $("#run-status").textContent = "running…";
  try {
    const out = await post("/api/runall", runRequest());
    if (seq !== runSeq) return; // a later edit's run answers instead
    const box = $("#answers");
    box.replaceChildren(...out.results.map(renderAnswer));
    markErrors(out.results);
    $("#run-status").textContent = "answered " + new Date().toLocaleTimeString();
  } catch (err) {
    $("#run-status").textContent = "error: " + err.message;
  }
}

async function runTests() {
  $("#test-summary").textContent = "running…";
  try {
    const out = await post("/api/test", { customization: editors.customization.value, tests: editors.tests.value });
    const box = $("#test-results");
    box.replaceChildren();
    if (out.error) box.appendChild(renderError(out.error));
    for (const c of out.cases) {
      const row = el("div", "case " + (c.passed ? "pass" : "fail"));
      row.appendChild(el("span", "verdict", c.passed ? "PASS" : "FAIL"));
      row.appendChild(el("span", "name", c.name));
      row.appendChild(el("span", "muted", c.durationMs.toFixed(2) + " ms"));
      const why = [...(c.failures || [])];
      if (c.error) why.push(c.error.message);
      if (c.differences) why.push(c.differences);
      if (why.length) row.appendChild(el("pre", "", why.join("\n")));
      box.appendChild(row);
    }
    const cov = {};
    for (const h of out.coverage) cov[h.line] = h.hits > 0 ? "hit" : "miss";
    editors.customization.setMarks("cov", cov);
    $("#test-summary").textContent = out.passed + " passed, " + out.failed + " failed";
  } catch (err) {
    $("#test-summary").textContent = "error: " + err.message;
  }
}

async function saveCase() {
  const body = runRequest();
  body.operation = $("#save-op").value;
  body.name = $("#save-name").value;
  try {
    const out = await post("/api/testcase", body);
    const tests = editors.tests.value.replace(/\s+$/, "");
    editors.tests.value = (tests ? tests + "\n---\n" : "") + out.yaml;
    await runTests();
  } catch (err) {
    $("#test-summary").textContent = "cannot save: " + err.message;
  }
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function main() {
  const rerun = debounce(runAll, 250);
  for (const name of ["customization", "object", "observed", "statusItems", "tests"]) {
    editors[name] = new Editor(document.getElementById(name), name === "tests" ? null : rerun);
  }
  $("#replicas").addEventListener("input", rerun);
  for (const op of OPERATIONS) $("#save-op").appendChild(el("option", "", op));
  $("#run-tests").addEventListener("click", runTests);
  $("#save-case").addEventListener("click", saveCase);
  $("#download").addEventListener("click", () => download("customizations.yaml", editors.customization.value));
  $("#download-tests").addEventListener("click", () => download("playground.yaml", editors.tests.value));
  const start = await (await fetch("/api/start")).json();
  source = start.source;
  $("#source").textContent = source === "starter" ? "the starter example" : source;
  editors.customization.value = start.customization;
  editors.object.value = start.object;
  editors.statusItems.value = start.statusItems || "";
  editors.tests.value = start.tests || "";
  $("#replicas").value = start.replicas;
  document.body.dataset.ready = "true";
  await runAll();
}

main();
