/**
 * `/personalities`: list, create (name + directory), `/personalities/NAME` shows and edits the
 * whole file, `POST …/use` activates, `GET …/delete` asks and `POST …/delete` removes (editable
 * ones only). Built on the PersonalityCatalog port; its UsageError becomes a 400 page and its
 * NotFoundError a 404 page, each with the catalog's one line. Plain forms: every POST passes the
 * app's Origin and session checks.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import type { PersonalityCatalog } from "../../src/personalities/personality.ts";
import { NotFoundError, UsageError } from "../../src/core/errors.ts";
import { field, renderPage } from "../render.tsx";
import { Notice, Unavailable } from "../views/layout.tsx";
import {
  CreatePersonalityForm,
  personalityHref,
  PersonalityTable,
} from "../views/personalities.tsx";
import {
  DeletePersonalityConfirmation,
  maxPersonalityChars,
  PersonalityEditor,
} from "../views/personalities_editor.tsx";

const page = { title: "Personalities", active: "/personalities" };

/** Fixed messages a redirect may ask for (never text from the request). */
const notices: Record<string, string> = {
  created: "Created. Edit the file below and save.",
  saved: "Saved.",
  used: "Active now: new conversations use it.",
  deleted: "Deleted.",
};

/** Personalities routes. */
export function personalitiesRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  function missing(c: Context) {
    return renderPage(
      c,
      context,
      { ...page, status: c.req.method === "GET" ? 200 : 503 },
      <Unavailable
        what="Personalities not available."
        hint="The personality catalog is not attached to this dashboard."
      />,
    );
  }

  /** Runs a catalog call; its UsageError/NotFoundError become one readable line (400/404). */
  async function attempt(
    c: Context,
    work: (catalog: PersonalityCatalog) => Response | Promise<Response>,
  ): Promise<Response> {
    const catalog = deps.personalities;
    if (!catalog) return missing(c);
    try {
      return await work(catalog);
    } catch (error) {
      if (!(error instanceof UsageError) && !(error instanceof NotFoundError)) throw error;
      const status = error instanceof NotFoundError ? 404 : 400;
      return renderPage(
        c,
        context,
        { ...page, status },
        <Notice kind="error">
          {error.message.split("\n")[0]} <a href="/personalities">Back to the personalities</a>
        </Notice>,
      );
    }
  }

  function showOrThrow(catalog: PersonalityCatalog, name: string) {
    const personality = catalog.show(name);
    if (!personality) throw new NotFoundError(`No personality named "${name}".`);
    return personality;
  }

  function nameOf(c: Context): string {
    const name = c.req.param("name") ?? "";
    if (name.length > 100) throw new UsageError("The personality name is too long.");
    return name;
  }

  app.get("/personalities", (c) =>
    attempt(c, (catalog) => {
      const message = notices[c.req.query("done") ?? ""];
      return renderPage(
        c,
        context,
        page,
        <>
          {message ? <Notice>{message}</Notice> : null}
          <p class="muted">
            New conversations use{" "}
            <strong>{catalog.activeName()}</strong>. Flat and directory personalities in the data
            folder can be edited; bundled and plugin ones are read-only.
          </p>
          <PersonalityTable
            personalities={catalog.list()}
            dataDir={deps.config.current().dataDir}
          />
          <CreatePersonalityForm />
        </>,
      );
    }));

  app.post("/personalities", (c) =>
    attempt(c, async (catalog) => {
      const form = await c.req.parseBody();
      const name = field(form, "name");
      if (!name) throw new UsageError("A personality needs a name.");
      if (name.length > 100) throw new UsageError("The personality name is too long.");
      const created = catalog.create(name, { directory: field(form, "directory") === "yes" });
      return c.redirect(`${personalityHref(created.name)}?done=created`, 303);
    }));

  app.get("/personalities/:name", (c) =>
    attempt(c, (catalog) => {
      const personality = showOrThrow(catalog, nameOf(c));
      return renderPage(
        c,
        context,
        { ...page, title: `Personality ${personality.name}` },
        <PersonalityEditor
          personality={personality}
          message={notices[c.req.query("done") ?? ""]}
        />,
      );
    }));

  app.post("/personalities/:name", (c) =>
    attempt(c, async (catalog) => {
      const name = nameOf(c);
      const form = await c.req.parseBody();
      const text = typeof form.text === "string" ? form.text.replace(/\r\n/g, "\n") : "";
      if (text.length > maxPersonalityChars) {
        throw new UsageError(`The file is too long (at most ${maxPersonalityChars} characters).`);
      }
      catalog.update(name, text);
      return c.redirect(`${personalityHref(name)}?done=saved`, 303);
    }));

  app.post("/personalities/:name/use", (c) =>
    attempt(c, (catalog) => {
      catalog.use(nameOf(c));
      return c.redirect("/personalities?done=used", 303);
    }));

  app.get("/personalities/:name/delete", (c) =>
    attempt(c, (catalog) => {
      const personality = showOrThrow(catalog, nameOf(c));
      if (!personality.editable) {
        throw new UsageError(
          `The ${personality.kind} personality "${personality.name}" cannot be deleted.`,
        );
      }
      return renderPage(
        c,
        context,
        { ...page, title: `Delete ${personality.name}` },
        <DeletePersonalityConfirmation name={personality.name} />,
      );
    }));

  app.post("/personalities/:name/delete", (c) =>
    attempt(c, (catalog) => {
      catalog.remove(nameOf(c));
      return c.redirect("/personalities?done=deleted", 303);
    }));
  return app;
}
