/**
 * The host⇄child protocol: one JSON message per line. Parent → child on stdin; child → parent on
 * stdout, each frame starting with the record separator U+001E so bytes a plugin manages to write
 * to stdout before a frame are dropped. Call ids are random and stay in the host and the worker
 * bootstrap: the bootstrap takes the worker's message channel away from plugin code before it
 * loads (bootstrap.ts), so a plugin never sees an id and cannot answer one call in place of
 * another (tests/sandbox/worker_surface_test.ts). Every decoded message is validated field by field; nothing from the
 * child is trusted (no prototype, no extra keys, sizes capped). Dependency-free: it is loaded by the
 * plugin host process, which must start fast and import no npm code.
 */
import type { PluginGrant } from "./permissions.ts";

/** Starts every child → parent frame. */
export const frameMarker = "\u001e";

/** Parent → child: the plugin's code and grant (first message), then calls. */
export type ParentMessage =
  | {
    type: "load";
    /** Relative path → source text of every code file of the plugin (hash-checked by the parent). */
    files: Record<string, string>;
    entry: string;
    /** Exported functions the parent may call. */
    functions: string[];
    grant: PluginGrant;
  }
  | { type: "call"; id: string; function: string; args: Record<string, unknown> };

/** Child → parent. */
export type ChildMessage =
  | { type: "ready"; functions: string[] }
  | { type: "load_error"; error: string }
  | { type: "result"; id: string; ok: true; value: string }
  | { type: "result"; id: string; ok: false; error: string };

/** Encodes a child → parent frame. */
export function encodeChildFrame(message: ChildMessage): string {
  return `${frameMarker}${JSON.stringify(message)}\n`;
}

/** Encodes a parent → child line. */
export function encodeParentLine(message: ParentMessage): string {
  return `${JSON.stringify(message)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(value: Record<string, unknown>, key: string, max: number): string | undefined {
  const field = Object.hasOwn(value, key) ? value[key] : undefined;
  return typeof field === "string" && field.length <= max ? field : undefined;
}

/**
 * Decodes one line from the child. Text before the last frame marker is ignored; anything that is
 * not a well-formed message is `undefined`.
 */
export function decodeChildLine(line: string, maxChars: number): ChildMessage | undefined {
  const start = line.lastIndexOf(frameMarker);
  if (start < 0 || line.length - start > maxChars) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(start + 1));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const type = stringField(value, "type", 20);
  if (type === "ready") {
    const functions = Object.hasOwn(value, "functions") ? value.functions : undefined;
    if (!Array.isArray(functions) || !functions.every((name) => typeof name === "string")) {
      return undefined;
    }
    return { type, functions: functions.slice(0, 100) as string[] };
  }
  if (type === "load_error") {
    const error = stringField(value, "error", 4000);
    return error === undefined ? undefined : { type, error };
  }
  if (type === "result") {
    const id = stringField(value, "id", 100);
    if (id === undefined) return undefined;
    if (value.ok === true) {
      const text = stringField(value, "value", maxChars);
      return text === undefined ? undefined : { type, id, ok: true, value: text };
    }
    const error = stringField(value, "error", 4000);
    return error === undefined ? undefined : { type, id, ok: false, error };
  }
  return undefined;
}

/** Decodes one parent → child line (trusted source, still checked). */
export function decodeParentLine(line: string): ParentMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (value.type === "call" && typeof value.id === "string" && typeof value.function === "string") {
    return {
      type: "call",
      id: value.id,
      function: value.function,
      args: isRecord(value.args) ? value.args : {},
    };
  }
  if (value.type === "load" && isRecord(value.files) && typeof value.entry === "string") {
    return value as unknown as ParentMessage;
  }
  return undefined;
}
