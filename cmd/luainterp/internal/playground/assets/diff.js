// A line diff of two texts by their longest common subsequence, for the
// answers that return an object: what the operation changed in its input.
"use strict";

// lineDiff returns [{op: " " | "+" | "-", text}], or null when the texts
// are too long to compare line by line here.
function lineDiff(a, b) {
  const x = a.split("\n"), y = b.split("\n");
  const n = x.length, m = y.length;
  if (n * m > 4000000) return null;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { out.push({ op: " ", text: x[i] }); i++; j++; }
    else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) { out.push({ op: "-", text: x[i] }); i++; }
    else { out.push({ op: "+", text: y[j] }); j++; }
  }
  while (out.length && out[out.length - 1].op === " " && out[out.length - 1].text === "") out.pop();
  return out;
}

// folded keeps the changed lines of a diff and `context` lines around
// each; a longer run of unchanged lines becomes one {op: "~", count}.
function folded(diff, context) {
  const keep = diff.map(() => false);
  diff.forEach((l, i) => {
    if (l.op === " ") return;
    for (let k = Math.max(0, i - context); k <= Math.min(diff.length - 1, i + context); k++) keep[k] = true;
  });
  const out = [];
  let skipped = 0;
  diff.forEach((l, i) => {
    if (keep[i]) {
      if (skipped) out.push({ op: "~", count: skipped });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped) out.push({ op: "~", count: skipped });
  return out;
}
