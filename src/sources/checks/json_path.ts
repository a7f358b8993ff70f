/** Reads a value at a simple dotted path (`a.b.0.c`) from parsed JSON. */

/** The value at `path` in `value`, or undefined when a step is missing. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(step)) return undefined;
      current = current[Number(step)];
    } else {
      if (!Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

/** The value at `path` of JSON text as compact JSON text ("undefined" when absent). */
export function jsonValueText(text: string, path: string): string {
  const parsed = JSON.parse(text);
  const value = valueAtPath(parsed, path);
  return value === undefined ? "undefined" : JSON.stringify(value);
}
