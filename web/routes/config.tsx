/**
 * `/config`: the effective configuration (secrets masked) and the file it came from, plus an
 * editor for radar.yaml. `POST /config/validate` checks, `POST /config` checks and saves; both
 * report the CLI's exact validation error. Secrets never reach the browser (see config_text).
 */
import { type Context, Hono } from "hono";
import { stringify } from "yaml";
import type { RouteContext } from "../app.tsx";
import { maskSecrets } from "../../src/config/mask_secrets.ts";
import { firstLine, RadarError } from "../../src/core/errors.ts";
import { maskSecretsInYaml, restoreSecretsInYaml } from "../config_text.ts";
import { isHtmx, renderFragment, renderPage } from "../render.tsx";
import { Notice } from "../views/layout.tsx";

const maxConfigBytes = 256 * 1024;

function errorLine(error: unknown): string {
  if (error instanceof RadarError) return error.message;
  return `Cannot save the config: ${firstLine(error)}`;
}

/** Config routes. */
export function configRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  app.get("/config", (c) => {
    const loaded = deps.config.current();
    const target = deps.config.targetPath();
    let text = "";
    let textProblem: string | undefined;
    try {
      text = maskSecretsInYaml(deps.config.readText() ?? "");
    } catch (error) {
      textProblem = errorLine(error);
    }
    const overridden = deps.config.overrides();
    return renderPage(
      c,
      context,
      { title: "Configuration", active: "/config" },
      <>
        <p>
          Loaded from <code>{loaded.path ?? "embedded defaults (no config file)"}</code>; data in
          {" "}
          <code>{loaded.dataDir}</code>.
        </p>
        {loaded.warnings.map((warning) => <Notice kind="warning">{warning}</Notice>)}
        {overridden.length
          ? (
            <p class="muted">
              Set by environment variables (they win over the file): {overridden.join(", ")}
            </p>
          )
          : null}
        <section>
          <h2>Edit {target}</h2>
          {textProblem ? <Notice kind="error">{textProblem} Fix the file on disk.</Notice> : (
            <form
              method="post"
              action="/config"
              hx-post="/config"
              hx-target="#config-result"
              class="stack"
            >
              <textarea
                name="text"
                rows={24}
                spellcheck={false}
                class="code"
                aria-label="radar.yaml"
              >
                {text}
              </textarea>
              <p class="muted">Secrets show as ******** ; leave them as they are to keep them.</p>
              <div class="row">
                <button
                  type="submit"
                  class="secondary"
                  hx-post="/config/validate"
                  hx-target="#config-result"
                >
                  Check
                </button>
                <button type="submit">Save</button>
              </div>
            </form>
          )}
          <div id="config-result" aria-live="polite"></div>
        </section>
        <section>
          <h2>Effective configuration</h2>
          <pre class="code">{stringify(maskSecrets(loaded.config))}</pre>
        </section>
      </>,
    );
  });

  async function readSubmitted(c: Context): Promise<string> {
    const form = await c.req.parseBody();
    const text = typeof form.text === "string" ? form.text.replace(/\r\n/g, "\n") : "";
    if (text.length > maxConfigBytes) {
      throw new RadarError("Cannot save the config: the text is too large");
    }
    return restoreSecretsInYaml(text, deps.config.readText());
  }

  function answer(c: Context, kind: "info" | "error", message: string, status: number) {
    if (isHtmx(c)) return renderFragment(c, <Notice kind={kind}>{message}</Notice>, status);
    return renderPage(
      c,
      context,
      { title: "Configuration", active: "/config", status },
      (
        <Notice kind={kind}>
          {message} <a href="/config">Back to the configuration</a>
        </Notice>
      ),
    );
  }

  app.post("/config/validate", async (c) => {
    try {
      const loaded = deps.config.validate(await readSubmitted(c));
      const warnings = loaded.warnings.length ? ` Warnings: ${loaded.warnings.join("; ")}` : "";
      return answer(c, "info", `Valid.${warnings}`, 200);
    } catch (error) {
      return answer(c, "error", errorLine(error), 422);
    }
  });

  app.post("/config", async (c) => {
    try {
      const text = await readSubmitted(c);
      const result = await deps.config.save(text);
      const parts = [`Saved ${deps.config.targetPath()}.`];
      if (result.applied.length) parts.push(`Applied now: ${result.applied.join(", ")}.`);
      if (result.needsRestart.length) {
        parts.push(`Restart radar serve to apply: ${result.needsRestart.join(", ")}.`);
      }
      if (!result.applied.length && !result.needsRestart.length) parts.push("Nothing changed.");
      return answer(c, "info", parts.join(" "), 200);
    } catch (error) {
      return answer(c, "error", errorLine(error), 422);
    }
  });
  return app;
}
