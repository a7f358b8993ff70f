/**
 * Where a file belongs in the library (`library.comics`, `library.documents`): the layout filled
 * from its metadata, with a free name when the place is taken by another file (` (2)`, ` (3)` …).
 * Never a name that exists: filing never overwrites.
 */
import { basename, dirname, extname, join } from "node:path";
import { type LayoutResult, renderLayout } from "./library_layout.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";

/** Where the file would go, or why it cannot be said. */
export type LibraryPlace =
  | { ok: true; path: string; shown: string; taken?: string; here?: boolean }
  | { ok: false; line: string; missing?: string[] };

/**
 * The library place of the file at `source` (real path) under the layout `key`'s `template`.
 * Answers undefined when no layout is set.
 */
export async function libraryPlace(
  guard: PathGuard,
  key: "library.comics" | "library.documents",
  template: string,
  fields: Record<string, string | undefined>,
  source: string,
  /** Places promised to other files already (a scan's earlier files). */
  reserved: ReadonlySet<string> = new Set(),
): Promise<LibraryPlace | undefined> {
  if (!template) return undefined;
  const rendered: LayoutResult = renderLayout(template, fields, { extension: extname(source) });
  if (!rendered.ok) {
    return "missing" in rendered
      ? {
        ok: false,
        line: `${key} needs ${rendered.missing.join(", ")}`,
        missing: rendered.missing,
      }
      : { ok: false, line: `${key}: ${rendered.problem}` };
  }
  const checked = guard.check(rendered.path, "write");
  if (!checked.ok) return { ok: false, line: `${key}: ${checked.reason}` };
  if (checked.path === source) {
    return { ok: true, path: checked.path, shown: guard.display(checked.path), here: true };
  }
  const free = await freeName(checked.path, reserved);
  if (!free) {
    return {
      ok: false,
      line: `${key}: ${guard.display(checked.path)} and 99 others like it exist`,
    };
  }
  return {
    ok: true,
    path: free,
    shown: guard.display(free),
    taken: free === checked.path ? undefined : guard.display(checked.path),
  };
}

/**
 * `path`, or `name (2).ext` … `name (99).ext`, whichever neither exists nor is `reserved`;
 * undefined if none.
 */
export async function freeName(
  path: string,
  reserved: ReadonlySet<string> = new Set(),
): Promise<string | undefined> {
  const extension = extname(path);
  const stem = basename(path, extension);
  for (let index = 1; index < 100; index++) {
    const candidate = index === 1 ? path : join(dirname(path), `${stem} (${index})${extension}`);
    if (reserved.has(candidate)) continue;
    try {
      await Deno.lstat(candidate);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return candidate;
      throw error;
    }
  }
  return undefined;
}
