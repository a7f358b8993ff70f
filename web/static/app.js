// Radar dashboard client helpers. Loaded as a file (the CSP forbids inline script).
// Forms marked data-reset resets after a successful htmx request; Ctrl/Cmd+Enter submits a
// textarea's form; elements marked data-scroll-end stay scrolled to their end.
"use strict";
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.target.closest && event.target.closest("form[data-reset]");
  if (form && event.detail.successful) form.reset();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
  const target = event.target;
  if (target instanceof HTMLTextAreaElement && target.form) {
    event.preventDefault();
    target.form.requestSubmit();
  }
});
document.addEventListener("htmx:afterSettle", () => {
  for (const element of document.querySelectorAll("[data-scroll-end]")) {
    element.scrollTop = element.scrollHeight;
  }
});
