/**
 * Where a file belongs in the library (`library.comics`, `library.documents`): the layout filled
 * from its metadata, with a free name when the place is taken by another file (` (2)`, ` (3)` …).
 * Never a name that exists: filing never overwrites.
 */
import { basename, dirname, extname, join } from "node:path";
import { type LayoutResult, renderLayout } from "../core/library_layout.ts";
import type { PathGuard } from "../adapters/os/path_guard.ts";

/** Where the file would go, or why it cannot be said. */
export type LibraryPlace =
  | { ok: true; path: string; shown: string; taken?: string; here?: boolean }
  | { ok: false; line: string };

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
): Promise<LibraryPlace | undefined> {
  if (!template) return undefined;
  const rendered: LayoutResult = renderLayout(template, fields, { extension: extname(source) });
  if (!rendered.ok) {
    return {
      ok: false,
      line: "missing" in rendered
        ? `${key} needs ${rendered.missing.join(", ")} (pass ${
          rendered.missing.length > 1 ? "them" : "it"
        } in set)`
        : `${key}: ${rendered.problem}`,
    };
  }
  const checked = guard.check(rendered.path, "write");
  if (!checked.ok) return { ok: false, line: `${key}: ${checked.reason}` };
  if (checked.path === source) {
    return { ok: true, path: checked.path, shown: guard.display(checked.path), here: true };
  }
  const free = await freeName(checked.path);
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

/** `path`, or `name (2).ext` … `name (99).ext`, whichever does not exist; undefined if none. */
export async function freeName(path: string): Promise<string | undefined> {
  const extension = extname(path);
  const stem = basename(path, extension);
  for (let index = 1; index < 100; index++) {
    const candidate = index === 1 ? path : join(dirname(path), `${stem} (${index})${extension}`);
    try {
      await Deno.lstat(candidate);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return candidate;
      throw error;
    }
  }
  return undefined;
}
