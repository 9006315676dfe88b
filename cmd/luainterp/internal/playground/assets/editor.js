// A plain textarea with line numbers, simple YAML and Lua highlighting, and
// marks on lines (an error, coverage), drawn in a layer under the text.
"use strict";

const LUA_KEYWORDS = new Set(["and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]);

function escapeHTML(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function span(cls, text) { return '<span class="' + cls + '">' + escapeHTML(text) + "</span>"; }

// highlightLua colours one line of Lua.
function highlightLua(line) {
  let out = "";
  const re = /(--.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_]\w*)|([^A-Za-z_\d"'-]+|-)/g;
  let m;
  while ((m = re.exec(line)) !== null) {
    if (m[1]) out += span("t-com", m[1]);
    else if (m[2]) out += span("t-str", m[2]);
    else if (m[3]) out += span("t-num", m[3]);
    else if (m[4]) out += LUA_KEYWORDS.has(m[4]) ? span("t-kw", m[4]) : escapeHTML(m[4]);
    else out += escapeHTML(m[0]);
  }
  return out;
}

// highlightYAML colours one line of YAML.
function highlightYAML(line) {
  const m = /^(\s*(?:- )?)([\w.\/-]+|"[^"]*")(:)(\s.*|$)/.exec(line);
  if (/^\s*#/.test(line)) return span("t-com", line);
  if (!m) return highlightValue(line);
  return escapeHTML(m[1]) + span("t-key", m[2]) + escapeHTML(m[3]) + highlightValue(m[4]);
}

function highlightValue(s) {
  const c = s.search(/\s#/);
  let comment = "";
  if (c >= 0) { comment = span("t-com", s.slice(c)); s = s.slice(0, c); }
  const v = /^(\s*)(".*"|'.*'|-?\d+(?:\.\d+)?|true|false|null)(\s*)$/.exec(s);
  if (v) return escapeHTML(v[1]) + span(/^["']/.test(v[2]) ? "t-str" : "t-num", v[2]) + escapeHTML(v[3]) + comment;
  return escapeHTML(s) + comment;
}

// highlight colours a YAML text, and as Lua the block scalars under a
// luaScript key.
function highlight(text) {
  const lines = text.split("\n");
  let luaIndent = -1; // the indent of the luaScript key while in its block
  return lines.map((line) => {
    const indent = line.search(/\S/);
    if (luaIndent >= 0 && (indent < 0 || indent > luaIndent)) return highlightLua(line);
    luaIndent = -1;
    if (/^\s*luaScript:\s*[|>][-+]?\s*$/.test(line)) luaIndent = indent;
    return highlightYAML(line);
  });
}

class Editor {
  constructor(el, onChange) {
    this.el = el;
    this.marks = {}; // kind -> {line: class}
    el.innerHTML = '<div class="gutter"></div><div class="area"><pre aria-hidden="true"></pre><textarea spellcheck="false" autocapitalize="off" autocomplete="off"></textarea></div>';
    this.gutter = el.querySelector(".gutter");
    this.pre = el.querySelector("pre");
    this.ta = el.querySelector("textarea");
    this.ta.setAttribute("aria-label", el.id);
    this.ta.addEventListener("input", () => { this.render(); onChange && onChange(); });
    this.ta.addEventListener("scroll", () => this.syncScroll());
    this.ta.addEventListener("keydown", (e) => {
      if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        document.execCommand("insertText", false, "  ");
      }
    });
  }
  get value() { return this.ta.value; }
  set value(v) { this.ta.value = v; this.render(); }
  // setMarks replaces the marks of one kind: a map from line (from 1) to a
  // class ("err", "hit", "miss").
  setMarks(kind, lines) { this.marks[kind] = lines || {}; this.render(); }
  classOf(n) {
    for (const kind of ["err", "cov"]) {
      const c = (this.marks[kind] || {})[n];
      if (c) return c;
    }
    return "";
  }
  render() {
    const lines = highlight(this.ta.value);
    let pre = "", gutter = "";
    lines.forEach((html, i) => {
      const cls = this.classOf(i + 1);
      const attr = cls ? ' class="' + cls + '"' : "";
      pre += "<div" + attr + ">" + (html || " ") + "</div>";
      gutter += "<div" + attr + ">" + (i + 1) + "</div>";
    });
    this.pre.innerHTML = pre + "<div> </div>";
    this.gutter.innerHTML = gutter + "<div></div>";
    this.syncScroll();
  }
  syncScroll() {
    this.pre.scrollTop = this.ta.scrollTop;
    this.pre.scrollLeft = this.ta.scrollLeft;
    this.gutter.scrollTop = this.ta.scrollTop;
  }
  // goTo puts the caret at the start of a line and scrolls to it.
  goTo(line) {
    const lines = this.ta.value.split("\n");
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
    this.ta.focus();
    this.ta.setSelectionRange(pos, pos);
    this.ta.scrollTop = Math.max(0, (line - 5) * 19);
    this.syncScroll();
  }
}
