// Run in a built page by scripts/build/render_calculators.py (through Playwright),
// once each calculator shows its embedded default answer: each calculator of the
// page, in document order, as [its id, the copy's markup] (that script's
// docstring says what the copy holds and why). `keepData` names the data-*
// attributes the copy keeps.

/**
 * @param {string[]} keepData
 * @returns {Array<[string, string]>}
 */
export default function calculatorCopies(keepData) {
  // Use my dice in the copy: the first prompt in place of the closed, empty section, shown by
  // the stylesheet while its Use my dice, now a checkbox's label, is checked; a single die's
  // faces are radio buttons' labels. Both work before the glue has come (calculator.mjs enables
  // them with the copy's other controls; own-dice.mjs takes over what was chosen). A pool's
  // faces, Undo, Start again, Keep in play and its name wait for the glue, disabled (a pool's
  // score can be chosen).
  /** @param {HTMLElement} copy @param {HTMLElement} prompt @param {string | undefined} calcId */
  const ownDiceCopy = (copy, prompt, calcId) => {
    /** @param {string} tag @param {Record<string, string>} attrs @param {string | null} [text] */
    const make = (tag, attrs, text) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text) e.textContent = text;
      return e;
    };
    const inert = (/** @type {Record<string, string>} */ attrs) => make("input", { ...attrs, disabled: "", class: `fm-sr fm-inert ${attrs.class || ""}`.trim() });
    // The copy has what firstPrompt found in its calculator: Use my dice, its section, the need.
    const toggle = /** @type {HTMLElement} */ (copy.querySelector(".fm-own-dice-button"));
    const label = make("label", { class: [...toggle.classList].filter((c) => c !== "fm-inert").concat("fm-own-dice-toggle").join(" ") });
    label.append(inert({ type: "checkbox", class: "fm-own-dice-open" }), toggle.textContent);
    toggle.replaceWith(label);
    prompt.removeAttribute("hidden");
    for (const control of prompt.querySelectorAll("input, select, textarea, button")) control.setAttribute("disabled", "");
    for (const name of /** @type {NodeListOf<HTMLInputElement>} */ (prompt.querySelectorAll("input.fm-mission-name"))) name.setAttribute("value", name.value);
    const need = /** @type {HTMLElement} */ (prompt.querySelector("[data-need-label]"));
    const faces = [...need.querySelectorAll(".fm-face-button")];
    if (need.dataset.needCount === "1") {
      for (const button of faces) {
        const face = make("label", { class: "fm-face-button" });
        face.append(inert({ type: "radio", name: `fm-${calcId}-first-face`, value: button.textContent }), button.textContent);
        button.replaceWith(face);
      }
    } else {
      for (const select of need.querySelectorAll(".fm-score-select")) select.classList.add("fm-inert");
      /** @type {Element} */ (need.querySelector(".fm-face-buttons")).after(make("p", { class: "fm-copy-pool" }, "Each die's button works once the calculator has loaded; what the pool scored can be chosen now."));
    }
    need.append(make("p", { class: "fm-copy-wait", role: "status" }, "Taken: what it does shows as soon as the calculator has loaded."));
    /** @type {Element} */ (copy.querySelector(".fm-own-dice")).replaceWith(prompt);
  };
  const keep = new Set(keepData);
  const idrefs = ["for", "aria-describedby", "aria-labelledby", "aria-controls", "aria-owns", "list"];
  const here = location.pathname.split("/").slice(0, -1);
  const relative = (/** @type {string} */ href) => {
    const url = new URL(href);
    const there = url.pathname.split("/");
    let common = 0;
    while (common < here.length && common < there.length - 1 && here[common] === there[common]) common++;
    return "../".repeat(here.length - common) + there.slice(common).join("/") + url.search + url.hash || "./";
  };
  // Use my dice's first prompt, as the glue draws it from the build's embedded answer
  // (own-dice.mjs, with the engine refused here): opened, copied and closed again.
  const firstPrompt = (/** @type {HTMLElement} */ root) => {
    const toggle = /** @type {HTMLElement | null} */ (root.querySelector(".fm-own-dice-button"));
    if (!toggle) return null;
    toggle.click();
    const section = /** @type {HTMLElement} the button opened it */ (root.querySelector(".fm-own-dice"));
    const drawn = section.dataset.resolve === "need" && section.querySelector("[data-need-label] .fm-face-button");
    const prompt = drawn ? /** @type {HTMLElement} */ (section.cloneNode(true)) : null;
    toggle.click();
    if (!prompt) throw new Error(`${root.dataset.calculator}: Use my dice did not show its first prompt without the engine`);
    return prompt;
  };
  /** @typedef {HTMLInputElement & Pick<HTMLSelectElement, "options">} Control a form's control (an input, a select or a textarea), as read here */
  return [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".calculator[data-calculator]"))].map((root) => {
    const prompt = firstPrompt(root);
    const copy = document.createElement("div");
    copy.className = "fm-static fm-calculator";
    for (const child of root.children) if (!child.matches(".fm-prerendered")) copy.append(child.cloneNode(true));
    // The answer card is the live view's, made for the page's own address when it prints (answer-card.mjs):
    // the build's would carry the build's temporary server in its QR code, and shows nothing on screen.
    for (const card of copy.querySelectorAll(".fm-card")) card.remove();
    // What the controls hold, as the attributes the HTML keeps; each field named by its input.
    const live = [.../** @type {NodeListOf<Control>} */ (root.querySelectorAll("input, select, textarea"))].filter((w) => !w.closest(".fm-prerendered"));
    const cloned = [.../** @type {NodeListOf<Control>} */ (copy.querySelectorAll("input, select, textarea"))];
    if (live.length !== cloned.length) throw new Error("the copy's controls differ from the calculator's");
    live.forEach((widget, i) => {
      const c = cloned[i];
      if (widget.type === "checkbox" || widget.type === "radio") c.toggleAttribute("checked", widget.checked);
      else if (widget.tagName === "SELECT") [...widget.options].forEach((o, j) => c.options[j].toggleAttribute("selected", o.selected));
      else if (widget.tagName === "TEXTAREA") c.textContent = widget.value;
      else c.setAttribute("value", widget.value);
      if (widget.dataset.input) c.setAttribute("name", widget.dataset.input);
    });
    for (const seed of copy.querySelectorAll("input.fm-seed")) seed.setAttribute("value", "");
    for (const note of /** @type {NodeListOf<HTMLElement>} */ (copy.querySelectorAll(".fm-engine"))) {
      note.textContent = "";
      note.hidden = true;
      note.classList.remove("fm-engine-failed");
    }
    for (const button of copy.querySelectorAll(".fm-roll-button")) button.removeAttribute("disabled");
    // Every control the player could use comes disabled, marked fm-inert: the copy answers its
    // defaults alone, and the glue enables them once it runs (calculator.mjs, wakeCopy).
    for (const control of /** @type {NodeListOf<HTMLButtonElement | Control>} */ (copy.querySelectorAll("input, select, textarea, button"))) {
      if (control.disabled) continue;
      control.setAttribute("disabled", "");
      control.classList.add("fm-inert");
    }
    if (prompt) ownDiceCopy(copy, prompt, root.dataset.calculator);
    for (const intro of copy.querySelectorAll(":scope > .fm-intro")) intro.replaceChildren(); // the source's goes in
    // Every heading of a page has an id (tests/test_links.py): the copy's (the comparison's, hidden) get theirs.
    copy.querySelectorAll("h1, h2, h3, h4, h5, h6").forEach((h, i) => (h.id ||= `fm-${root.dataset.calculator}-heading-${i + 1}`));
    const ids = new Set([...copy.querySelectorAll("[id]")].map((e) => e.id));
    for (const e of [copy, ...copy.querySelectorAll("*")]) {
      for (const name of e.getAttributeNames()) {
        if (name.startsWith("data-") && !keep.has(name)) e.removeAttribute(name);
      }
      if (e.id) e.id = "static-" + e.id;
      for (const name of idrefs) {
        const value = e.getAttribute(name);
        if (value) e.setAttribute(name, value.split(/\s+/).map((id) => (ids.has(id) ? "static-" + id : id)).join(" "));
      }
      const href = e.getAttribute("href");
      if (href && href.startsWith(location.origin + "/")) e.setAttribute("href", relative(href));
    }
    return [/** @type {string} the selector asks for it */ (root.dataset.calculator), copy.outerHTML];
  });
}
