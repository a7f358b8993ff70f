/**
 * Serves the embedded static files (vendored htmx, the stylesheet, the small client script).
 * Files are read through import.meta-relative URLs so the compiled binary finds them
 * (`deno compile --include web/static/`). Only the listed files are served.
 */
import type { Hono } from "hono";

const files: Record<string, string> = {
  "style.css": "text/css; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "vendor/htmx.min.js": "text/javascript; charset=utf-8",
};

const cache = new Map<string, Uint8Array<ArrayBuffer>>();

async function readStatic(name: string): Promise<Uint8Array<ArrayBuffer>> {
  const cached = cache.get(name);
  if (cached) return cached;
  const bytes = await Deno.readFile(new URL(`./static/${name}`, import.meta.url));
  cache.set(name, bytes);
  return bytes;
}

/** Adds `GET /static/*` for the embedded files (and an empty favicon: no 404 in consoles). */
export function addStaticRoutes(app: Hono): void {
  app.get("/favicon.ico", (c) => c.body(null, 204, { "Cache-Control": "public, max-age=86400" }));
  app.get("/static/*", async (c) => {
    const name = c.req.path.slice("/static/".length);
    const type = Object.hasOwn(files, name) ? files[name] : undefined;
    if (!type) return c.text("Not found.", 404);
    const body = await readStatic(name);
    return c.body(body, 200, {
      "Content-Type": type,
      "Cache-Control": "public, max-age=300",
    });
  });
}
