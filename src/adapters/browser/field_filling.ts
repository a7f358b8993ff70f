/**
 * How one field is filled, by its type: checkboxes and radios take yes/no, selects an option's
 * label (or value), file inputs are refused, everything else is typed.
 */
import type { Locator } from "playwright-core";

/** The filling under way and the value as people read it, or why the field cannot be filled. */
export type FieldFilling = { filling: Promise<unknown>; shown: string } | { problem: string };

/** Starts filling `locator` (a field of `type`) with `value`. */
export function fillField(
  locator: Locator,
  type: string,
  value: string,
  timeoutMs: number,
): FieldFilling {
  const timeout = { timeout: timeoutMs };
  if (type === "checkbox" || type === "radio") {
    const on = /^(yes|true|on|1|x|checked)$/i.test(value.trim());
    return { filling: locator.setChecked(on, timeout), shown: on ? "yes" : "no" };
  }
  if (type === "select-one" || type === "select-multiple" || type === "select") {
    const filling = locator.selectOption({ label: value }, timeout)
      .catch(() => locator.selectOption(value, timeout));
    return { filling, shown: value };
  }
  if (type === "file") return { problem: "file uploads are not supported" };
  return { filling: locator.fill(value, timeout), shown: value };
}
