/**
 * playwright-core, loaded on the first browser call only (a literal `import()`, so `deno compile`
 * embeds it and `radar ask` without a browser call never loads it).
 *
 * At import, playwright-core asks whether it runs under WSL by probing
 * /proc/sys/fs/binfmt_misc/WSLInterop with fs.existsSync; Deno grants /proc/sys paths only with
 * --allow-all and throws instead of answering false. During the import that one path answers
 * "no"; every other path is asked as usual, and the original function is put back afterwards.
 */
import fs from "node:fs";

/** The module's type (type-only: nothing is loaded by this line). */
export type Playwright = typeof import("playwright-core");

const wslProbe = "/proc/sys/fs/binfmt_misc/WSLInterop";
let loading: Promise<Playwright> | undefined;

/** playwright-core, imported once. */
export function loadPlaywright(): Promise<Playwright> {
  loading ??= (async () => {
    const existsSync = fs.existsSync;
    fs.existsSync =
      ((path: fs.PathLike) => path === wslProbe ? false : existsSync(path)) as typeof fs.existsSync;
    try {
      return await import("playwright-core");
    } finally {
      fs.existsSync = existsSync;
    }
  })();
  loading.catch(() => loading = undefined);
  return loading;
}
