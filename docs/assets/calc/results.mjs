// Results of a calculator: odds tables with bars, means and "at least"
// columns, and the log of a seeded roll. Generic: everything comes from the
// engine's answer (rules_py.call_json with "describe": true), no rule here.
//
// Exact arithmetic: probabilities arrive as the CLI's fraction strings
// ("11/32", "0", "1") and are added and multiplied as BigInt fractions, so the
// cumulative column and the mean are exact too; only the displayed
// percentages are rounded.

// ---------------------------------------------------------------- fractions

function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

export class Frac {
  constructor(n, d = 1n) {
    if (d < 0n) [n, d] = [-n, -d];
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
  }

  static parse(text) {
    const m = /^\s*(-?\d+)(?:\/(\d+))?\s*$/.exec(String(text));
    if (!m) return null;
    return new Frac(BigInt(m[1]), m[2] ? BigInt(m[2]) : 1n);
  }

  add(o) {
    return new Frac(this.n * o.d + o.n * this.d, this.d * o.d);
  }

  mul(o) {
    return new Frac(this.n * o.n, this.d * o.d);
  }

  div(o) {
    return new Frac(this.n * o.d, this.d * o.n);
  }

  isZero() {
    return this.n === 0n;
  }

  // The CLI's spelling: "n/d" in lowest terms, or a whole number.
  toString() {
    return this.d === 1n ? String(this.n) : `${this.n}/${this.d}`;
  }

  toNumber() {
    // Scaled integer division first, so huge numerators and denominators stay exact enough.
    const scale = 10n ** 15n;
    return Number((this.n * scale) / this.d) / 1e15;
  }
}

const ZERO = new Frac(0n);
const ONE = new Frac(1n);

// A probability as a percentage: rounded for reading, never shown as 0% or
// 100% unless it is exactly that.
export function percent(p) {
  if (p.isZero()) return "0%";
  if (p.n === p.d) return "100%";
  const x = p.toNumber() * 100;
  if (x < 0.01) return "<0.01%";
  if (x > 99.99) return ">99.99%";
  const digits = x < 1 || x > 99 ? 2 : 1;
  return `${x.toFixed(digits)}%`;
}

function decimal(f, places = 2) {
  const x = f.toNumber();
  return Object.is(Math.round(x * 10 ** places), -0) ? (0).toFixed(places) : x.toFixed(places);
}

// ---------------------------------------------------------------- helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data") || k.startsWith("aria") || k === "title" || k === "role" || k === "style" || k === "scope") node.setAttribute(k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), v);
    else node[k] = v;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export { el };

// How a value reads in a table: booleans as yes/no, names with spaces,
// minus signs as minus signs.
export function valueText(type, value) {
  if (type === "bool") return value === "true" ? "yes" : value === "false" ? "no" : value;
  if (type === "int" && /^-\d+$/.test(value)) return "\u2212" + value.slice(1);
  return String(value).replace(/_/g, " ");
}

const isInteger = (value) => /^-?\d+$/.test(value);

// ---------------------------------------------------------------- odds

// Summary numbers of one outcome's distribution, exact.
export function summarise(outcome, dist) {
  const rows = outcome.order.map((value) => ({ value, p: Frac.parse(dist[value]) || ZERO }));
  const info = { rows };
  if (outcome.type === "int") {
    const numeric = rows.filter((r) => isInteger(r.value));
    let mass = ZERO;
    let sum = ZERO;
    for (const r of numeric) {
      mass = mass.add(r.p);
      sum = sum.add(r.p.mul(new Frac(BigInt(r.value))));
    }
    // P(X >= v), adding from the largest value down.
    let tail = ZERO;
    for (const r of [...numeric].sort((a, b) => (BigInt(a.value) < BigInt(b.value) ? 1 : -1))) {
      tail = tail.add(r.p);
      r.atLeast = tail;
    }
    info.mean = mass.isZero() ? null : sum.div(mass);
    info.meanIsConditional = !mass.isZero() && mass.n !== mass.d;
  }
  if (outcome.type === "bool") info.pTrue = rows.find((r) => r.value === "true")?.p || ZERO;
  let best = null;
  for (const r of rows) if (!best || r.p.toNumber() > best.p.toNumber()) best = r;
  info.likeliest = best;
  return info;
}

export function oddsSection(outcome, dist) {
  const info = summarise(outcome, dist);
  const numeric = outcome.type === "int";
  const table = el(
    "table",
    { class: "fm-odds" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col", text: "Result" }),
        el("th", { scope: "col", text: "Chance" }),
        el("th", { scope: "col", class: "fm-barcell", ariaHidden: "true" }),
        el("th", { scope: "col", text: "Exact" }),
        numeric ? el("th", { scope: "col", text: "At least", title: "The chance of this result or a higher one" }) : null,
      ),
    ),
  );
  const body = el("tbody");
  for (const r of info.rows) {
    const p = r.p.toString();
    const attrs = { dataOutcome: outcome.name, dataValue: r.value, dataP: p };
    const bar = el("span", { class: "fm-bar", style: `width: ${(r.p.toNumber() * 100).toFixed(2)}%` });
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row", class: "fm-value", text: valueText(outcome.type, r.value) }),
        el("td", { class: "fm-pct", ...attrs, text: percent(r.p) }),
        el("td", { class: "fm-barcell", ariaHidden: "true" }, bar),
        el("td", { class: "fm-frac", ...attrs, text: p }),
        numeric
          ? r.atLeast
            ? el("td", { class: "fm-atleast", dataOutcome: outcome.name, dataValue: r.value, dataPAtLeast: r.atLeast.toString(), title: r.atLeast.toString(), text: percent(r.atLeast) })
            : el("td", { class: "fm-atleast", text: "\u2014" })
          : null,
      ),
    );
  }
  table.append(body);
  const section = el("section", { class: "fm-outcome", dataOutcome: outcome.name }, el("h4", { class: "fm-outcome-title", text: outcome.label }));
  if (outcome.help) section.append(el("p", { class: "fm-outcome-help", text: outcome.help }));
  section.append(table);
  if (numeric && info.mean) {
    const mean = el("p", { class: "fm-mean", dataOutcome: outcome.name, dataMean: info.mean.toString() });
    mean.append("Mean ", el("strong", { text: decimal(info.mean).replace(/^-/, "\u2212") }));
    if (info.mean.d !== 1n) mean.append(` (exactly ${info.mean.toString()})`);
    if (info.meanIsConditional) mean.append(", counting numeric results only");
    section.append(mean);
  }
  return { section, info };
}

export function renderOdds(container, answer) {
  container.replaceChildren();
  const summaries = {};
  for (const outcome of answer.described) {
    const { section, info } = oddsSection(outcome, answer.outcomes[outcome.name]);
    summaries[outcome.name] = info;
    container.append(section);
  }
  if (answer.notes && answer.notes.length) {
    const list = el("ul", { class: "fm-notes" });
    for (const note of answer.notes) list.append(el("li", { text: note }));
    container.append(el("div", { class: "fm-readings" }, el("p", { class: "fm-readings-title", text: "Readings in force" }), list));
  }
  return summaries;
}

// ---------------------------------------------------------------- roll

function resultText(result) {
  if (result === null || result === undefined) return "\u2014";
  if (typeof result === "boolean") return result ? "yes" : "no";
  if (Array.isArray(result)) return `(${result.map(resultText).join(", ")})`;
  if (typeof result === "object") return Object.entries(result).map(([k, v]) => `${k}: ${resultText(v)}`).join(", ");
  return String(result).replace(/_/g, " ");
}

export function cliArgs(inputs) {
  return Object.entries(inputs)
    .map(([k, v]) => {
      const pair = `${k}=${v}`;
      return /^[\w.,:/*+=-]+$/.test(pair) ? pair : `'${pair.replace(/'/g, "'\\''")}'`;
    })
    .join(" ");
}

export function renderRoll(container, answer, defaults) {
  const changed = {};
  for (const [k, v] of Object.entries(answer.inputs)) if (defaults[k] !== v) changed[k] = v;
  const command = `python -m rules_py roll ${answer.calculator} --seed ${answer.seed} ${cliArgs(changed)}`.trim();
  const dice = el("ol", { class: "fm-dice" });
  for (const d of answer.dice) {
    const faces = el("span", { class: "fm-faces" });
    for (const f of d.faces) faces.append(el("span", { class: "fm-face", text: String(f) }));
    dice.append(
      el(
        "li",
        { dataLabel: d.label, dataDice: d.dice, dataFaces: d.faces.join(" "), dataResult: JSON.stringify(d.result) },
        el("span", { class: "fm-die-label", text: d.label }),
        " ",
        el("span", { class: "fm-die-spec", text: d.dice }),
        " ",
        faces,
        " \u2192 ",
        el("strong", { class: "fm-die-result", text: resultText(d.result) }),
      ),
    );
  }
  const outcomes = el("dl", { class: "fm-roll-outcomes" });
  for (const o of answer.described) {
    const value = answer.outcomes[o.name];
    outcomes.append(el("dt", { text: o.label }), el("dd", { dataOutcome: o.name, dataValue: value, text: valueText(o.type, value) }));
  }
  container.replaceChildren(
    el("p", { class: "fm-roll-head" }, "Rolled with seed ", el("strong", { class: "fm-roll-seed", text: String(answer.seed) }), ". Anyone can check it: ", el("code", { text: command })),
    dice,
    outcomes,
  );
  container.dataset.seed = String(answer.seed);
  container.hidden = false;
}
