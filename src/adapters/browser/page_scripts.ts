/**
 * JavaScript that runs inside the page (as source text: the page's realm, not Deno's). The page
 * can read and change what these scripts leave behind, so their answers are data to check, never
 * a boundary: what a page sends is held by the route rules and the guarded proxy outside it.
 */

/**
 * What a form would send when `submitter` submits it, as `(form, submitter, limits) => Submission`
 * source text: the method and absolute target (a submitter's formmethod/formaction first; read
 * from the attributes, which a field named "action" cannot shadow), every field FormData holds
 * (hidden ones marked, passwords marked secret, labels for the rest), `tooLarge` past the limits.
 * A GET form's target loses its query: the browser replaces it with the fields.
 */
const submissionOfSource = `(form, submitter, limits) => {
  const attribute = (element, name) =>
    element && element.hasAttribute && element.hasAttribute(name) ? element.getAttribute(name) : null;
  let method = String(attribute(submitter, "formmethod") ?? attribute(form, "method") ?? "get").toLowerCase();
  if (!["get", "post", "dialog"].includes(method)) method = "get";
  const action = attribute(submitter, "formaction") ?? attribute(form, "action") ?? "";
  let url;
  try { url = new URL(action || document.URL, document.baseURI); } catch { url = new URL(document.URL); }
  url.hash = "";
  if (method === "get") url.search = "";
  const clean = (text, max) => String(text || "").replace(/\\s+/g, " ").trim().slice(0, max);
  const words = (node) => {
    const copy = node.cloneNode(true);
    for (const inner of copy.querySelectorAll("select, input, textarea, button")) inner.remove();
    return copy.textContent;
  };
  const labelOf = (element) => {
    const labels = element.labels ? [...element.labels].map(words).join(" ") : "";
    return clean(labels || element.getAttribute("aria-label") || element.getAttribute("placeholder") ||
      element.getAttribute("title"), 80);
  };
  const fields = [];
  let tooLarge = false;
  try {
    for (const [name, value] of new FormData(form, submitter || undefined).entries()) {
      if (fields.length >= limits.fields) { tooLarge = true; break; }
      const element = form.elements.namedItem(name);
      const single = element && element.nodeType === 1 ? element : null;
      const text = typeof value === "string" ? value : "[file]";
      if (text.length > limits.valueChars) tooLarge = true;
      const field = { name: String(name).slice(0, 200), value: text.slice(0, limits.valueChars) };
      if (single && String(single.type).toLowerCase() === "hidden") field.hidden = true;
      else if (single) { const label = labelOf(single); if (label) field.label = label; }
      if (single && String(single.type).toLowerCase() === "password") field.secret = true;
      fields.push(field);
    }
  } catch {}
  return { method: method.toUpperCase(), url: url.href, fields, tooLarge };
}`;

/**
 * Runs in every frame before the page's own scripts: form submissions are stopped and recorded
 * unless Radar lets them through (`__radarRelease`), so a submit by Enter or by script waits
 * for the tool like a submit button does. Records (what the form would send, see
 * `submissionOfSource`) live in a non-writable `__radarHeld` array; one the page cancels itself
 * (a script that sends the data its own way, which the route rules hold) is marked `pageHandled`.
 * Called as `(source)(limits)`.
 */
export const submitGuardScript = `((limits) => {
  const held = [];
  try {
    Object.defineProperty(window, "__radarHeld", { value: held, configurable: false, writable: false });
  } catch { return; }
  const submissionOf = ${submissionOfSource};
  const records = new WeakMap();
  const preventDefault = Event.prototype.preventDefault;
  // The page cancelling a submission it stopped itself: that record never goes.
  Event.prototype.preventDefault = function () {
    const record = records.get(this);
    if (record) record.pageHandled = true;
    return preventDefault.call(this);
  };
  window.addEventListener("submit", (event) => {
    if (window.__radarRelease === true) return;
    preventDefault.call(event);
    const form = event.target;
    if (held.length >= 20 || !(form instanceof HTMLFormElement)) return;
    const record = Object.assign({ form, submitter: event.submitter || null }, submissionOf(form, event.submitter, limits));
    records.set(event, record);
    held.push(record);
  }, true);
})`;

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
 * submit control also what its form would send (`submissionOfSource`: method, target, every
 * field, hidden ones too: what the person says yes to). Source text of
 * `(element, { actingWords, limits }) => {…}`.
 */
export const inspectScript = `(element, options) => {
  const describe = ${describeElementSource};
  const submissionOf = ${submissionOfSource};
  const actingWords = new RegExp(options.actingWords, "i");
  const described = describe(element, actingWords);
  const form = element.form;
  if (!described.submits || !form) return described;
  const submitter = ["submit", "image"].includes(String(element.type).toLowerCase()) ? element : null;
  try { described.submission = submissionOf(form, submitter, options.limits); } catch {}
  return described;
}`;
