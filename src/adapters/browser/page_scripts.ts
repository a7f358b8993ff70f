/**
 * JavaScript that runs inside the page (as source text: the page's realm, not Deno's). The page
 * can read and change what these scripts leave behind, so their answers are data to check, never
 * a boundary: what a page sends is held by the route rules and the guarded proxy outside it.
 */

/**
 * Runs in every frame before the page's own scripts: form submissions are stopped and recorded
 * unless Radar lets them through (`__radarRelease`), so a submit by Enter or by script waits
 * for the tool like a submit button does. Records live in a non-writable `__radarHeld` array.
 */
export const submitGuardScript = `(() => {
  const held = [];
  try {
    Object.defineProperty(window, "__radarHeld", { value: held, configurable: false, writable: false });
  } catch { return; }
  const describe = (form, submitter) => {
    const lines = [];
    try {
      const data = new FormData(form, submitter || undefined);
      for (const [name, value] of data.entries()) {
        const field = form.elements.namedItem(name);
        const secret = field && field.type === "password";
        const text = typeof value === "string" ? value : "[file]";
        lines.push(name + "=" + (secret ? "••••••" : text.slice(0, 200)));
        if (lines.length >= 40) break;
      }
    } catch {}
    return lines.join("\\n");
  };
  window.addEventListener("submit", (event) => {
    if (window.__radarRelease === true) return;
    event.preventDefault();
    const form = event.target;
    if (held.length >= 20) return;
    held.push({
      form,
      submitter: event.submitter || null,
      method: String(form.method || "get").toUpperCase(),
      url: String(form.action || location.href),
      data: describe(form, event.submitter),
    });
  }, true);
})();`;

/**
 * Describes one element: kind (field, button, link), type, label, and whether it submits (a
 * submit control of a form, or a button whose words say buy, pay, delete…). Shared by the page
 * listing and the check right before a click. Source text of `(element, actingWords) => {…}`.
 */
const describeElementSource = `(element, actingWords) => {
  const clean = (text, max) => String(text || "").replace(/\\s+/g, " ").trim().slice(0, max);
  const tag = element.tagName;
  const type = String(element.type || "").toLowerCase();
  const role = element.getAttribute("role");
  const words = (node) => {
    const copy = node.cloneNode(true);
    for (const inner of copy.querySelectorAll("select, input, textarea, button")) inner.remove();
    return copy.textContent;
  };
  if (tag === "A" && role !== "button") {
    const label = clean(element.innerText || element.getAttribute("aria-label") || element.getAttribute("title"), 80);
    return { kind: "link", type: "link", label, href: String(element.href).slice(0, 300), submits: false };
  }
  if (tag === "BUTTON" || role === "button" || (tag === "INPUT" && ["submit", "button", "reset", "image"].includes(type))) {
    const label = clean(element.innerText || element.value || element.getAttribute("aria-label") ||
      element.getAttribute("title") || element.getAttribute("alt"), 80);
    const submitControl = ((tag === "BUTTON" && type === "submit") || (tag === "INPUT" && (type === "submit" || type === "image"))) && !!element.form;
    return { kind: "button", type: tag === "BUTTON" || tag === "INPUT" ? type || "submit" : "button", label, submits: submitControl || actingWords.test(label) };
  }
  const labels = element.labels ? [...element.labels].map(words).join(" ") : "";
  const field = {
    kind: "field",
    type: tag === "SELECT" ? "select" : tag === "TEXTAREA" ? "textarea" : type || "text",
    label: clean(labels || element.getAttribute("aria-label") || element.getAttribute("placeholder") ||
      element.getAttribute("title") || element.getAttribute("name") || element.id, 80),
    submits: false,
  };
  if (element.name) field.name = clean(element.name, 80);
  if (element.required) field.required = true;
  if (type === "checkbox" || type === "radio") field.value = element.checked ? "on" : "off";
  else if (type === "password") field.value = element.value ? "(set)" : "";
  else if (tag === "SELECT") {
    field.value = clean(element.selectedOptions[0] ? element.selectedOptions[0].text : "", 80);
    field.options = [...element.options].slice(0, 30).map((option) => clean(option.text, 60));
  } else if (tag === "INPUT" || tag === "TEXTAREA") field.value = clean(element.value, 200);
  return field;
}`;

/**
 * Lists what the page shows: its rendered text (cut to `maxChars`) and its visible fields,
 * buttons and links, each stamped with a `data-radar-ref` attribute and given a selector that
 * finds it again on a fresh load. Called as `(source)(options)`.
 */
export const readPageScript = `(options) => {
  const describe = ${describeElementSource};
  const actingWords = new RegExp(options.actingWords, "i");
  const visible = (element) => {
    if (element.type === "hidden") return false;
    const rects = element.getClientRects();
    if (!rects.length) return false;
    const style = getComputedStyle(element);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  const cssEscape = (text) => (window.CSS && CSS.escape) ? CSS.escape(text) : text.replace(/["\\\\]/g, "\\\\$&");
  const unique = (selector) => { try { return document.querySelectorAll(selector).length === 1; } catch { return false; } };
  const selectorOf = (element) => {
    if (element.id && unique("#" + cssEscape(element.id))) return "#" + cssEscape(element.id);
    const tag = element.tagName.toLowerCase();
    const name = element.getAttribute("name");
    if (name) {
      const byName = tag + '[name="' + cssEscape(name) + '"]';
      if (unique(byName)) return byName;
      if (element.type === "radio" || element.type === "checkbox") {
        const byValue = byName + '[value="' + cssEscape(String(element.value)) + '"]';
        if (unique(byValue)) return byValue;
      }
    }
    const path = [];
    for (let node = element; node && node.nodeType === 1 && node !== document.documentElement; node = node.parentElement) {
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.tagName === node.tagName) index++;
      }
      path.unshift(node.tagName.toLowerCase() + ":nth-of-type(" + index + ")");
      if (node.id && unique("#" + cssEscape(node.id))) { path[0] = "#" + cssEscape(node.id); break; }
    }
    return path.join(" > ");
  };
  const controls = [];
  const counts = { field: 0, button: 0, link: 0 };
  const limits = { field: 60, button: 30, link: 40 };
  const prefix = { field: "f", button: "b", link: "l" };
  for (const element of document.querySelectorAll("[data-radar-ref]")) element.removeAttribute("data-radar-ref");
  for (const element of document.querySelectorAll("input, select, textarea, button, a[href], [role=button]")) {
    if (!visible(element)) continue;
    const described = describe(element, actingWords);
    const kind = described.kind;
    if (counts[kind] >= limits[kind]) { counts[kind]++; continue; }
    const ref = prefix[kind] + (++counts[kind]);
    element.setAttribute("data-radar-ref", ref);
    controls.push(Object.assign({ ref, selector: selectorOf(element) }, described));
  }
  const body = document.body ? document.body.innerText : "";
  const text = String(body || "").replace(/[ \\t]+\\n/g, "\\n").replace(/\\n{3,}/g, "\\n\\n").trim();
  return {
    url: location.href,
    title: String(document.title || "").replace(/\\s+/g, " ").trim().slice(0, 200),
    text: text.slice(0, options.maxChars),
    textCut: Math.max(0, text.length - options.maxChars),
    controls,
  };
}`;

/**
 * Describes one element the way `readPageScript` does (for the check right before a click); for a
 * submit control also what its form would send (label or name and value, passwords masked, hidden
 * fields too: what the person says yes to).
 */
export const inspectScript = `(element, options) => {
  const describe = ${describeElementSource};
  const actingWords = new RegExp(options.actingWords, "i");
  const described = describe(element, actingWords);
  const form = element.form;
  if (!described.submits || !form) return described;
  const formData = [];
  try {
    const submitter = ["submit", "image"].includes(String(element.type).toLowerCase()) ? element : undefined;
    for (const [name, value] of new FormData(form, submitter).entries()) {
      const field = form.elements.namedItem(name);
      const single = field && field.nodeType === 1 ? field : null;
      const label = single && single.type !== "hidden" ? describe(single, actingWords).label : "";
      const secret = single && single.type === "password";
      const text = typeof value === "string" ? value : "[file]";
      formData.push({ label: String(label || name).slice(0, 80), value: secret ? "••••••" : text.slice(0, 200) });
      if (formData.length >= 40) break;
    }
  } catch {}
  described.formData = formData;
  return described;
}`;
