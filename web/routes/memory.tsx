/**
 * `/memory`: facts by category, full-text search, add, edit, forget; personality notes marked.
 * Fragments: `GET /memory/:id/edit` (edit form), `GET /memory/:id` (row), `POST /memory/:id`
 * (save → row), `POST /memory/:id/forget` or `DELETE /memory/:id` (→ nothing). Browse, search,
 * add and edit go through the memory hook points (post_memory_search, pre_memory_store) as the
 * tools do: a fact post_memory_search hides is neither listed nor shown or edited by id (404);
 * forgetting it still works, since that shows nothing.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import { factCategories, type FactCategory } from "../../src/core/ports.ts";
import { HookedMemory } from "../../src/core/hooked_memory.ts";
import {
  field,
  isHtmx,
  parseId,
  redirectAfterPost,
  renderFragment,
  renderPage,
} from "../render.tsx";
import { FactEditor, FactRow, FactTable } from "../views/facts.tsx";
import { Notice } from "../views/layout.tsx";
import { FilterForm } from "../views/filter_form.tsx";

const maxFactChars = 2000;
const perCategory = 100;

function readCategory(value: string | undefined): FactCategory | undefined {
  return factCategories.includes(value as FactCategory) ? value as FactCategory : undefined;
}

/** Memory routes. */
export function memoryRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;
  const memory = deps.memory ?? new HookedMemory({ facts: deps.facts });

  async function results(search: string, category?: FactCategory) {
    if (search) {
      const found = await memory.searchFacts(search, 100, category);
      return (
        <section>
          <h2>{found.length} match{found.length === 1 ? "" : "es"} for “{search}”</h2>
          <FactTable facts={found} timeZone={context.timeZone()} />
        </section>
      );
    }
    const shown = category ? [category] : factCategories;
    const listed = await Promise.all(
      shown.map((name) => memory.listFacts({ limit: perCategory, category: name })),
    );
    return shown.map((name, index) => {
      const facts = listed[index];
      return (
        <section>
          <h2>
            {name.replace("_", " ")}
            {name === "personality_note" ? " (shapes Radar's personality)" : ""}
          </h2>
          {facts.length
            ? <FactTable facts={facts} timeZone={context.timeZone()} />
            : <p class="muted">None.</p>}
        </section>
      );
    });
  }

  app.get("/memory", async (c) => {
    const search = (c.req.query("q") ?? "").trim().slice(0, 200);
    const category = readCategory(c.req.query("category"));
    return renderPage(
      c,
      context,
      { title: "Memory", active: "/memory" },
      <>
        <FilterForm action="/memory" list="/memory/results" target="#memory-results">
          <input
            type="search"
            name="q"
            value={search}
            placeholder="Full-text search"
            aria-label="Search facts"
          />
          <select name="category" aria-label="Category">
            <option value="">all categories</option>
            {factCategories.map((name) => (
              <option value={name} selected={category === name}>{name}</option>
            ))}
          </select>
          <button type="submit" class="secondary">Search</button>
        </FilterForm>
        <details class="card">
          <summary>Add a fact</summary>
          <form method="post" action="/memory" class="stack">
            <select name="category" aria-label="Category of the new fact">
              {factCategories.map((name) => <option value={name}>{name}</option>)}
            </select>
            <textarea name="content" rows={2} required maxlength={maxFactChars} aria-label="Fact">
            </textarea>
            <button type="submit">Remember</button>
          </form>
        </details>
        <div id="memory-results">{await results(search, category)}</div>
      </>,
    );
  });

  app.get("/memory/results", async (c) => {
    const search = (c.req.query("q") ?? "").trim().slice(0, 200);
    return renderFragment(c, <>{await results(search, readCategory(c.req.query("category")))}</>);
  });

  app.post("/memory", async (c) => {
    const form = await c.req.parseBody();
    const category = readCategory(field(form, "category"));
    const content = field(form, "content");
    const invalid = !category || !content || content.length > maxFactChars;
    const stored = invalid ? undefined : await memory.add({ category, content }, deps.clock.now());
    if (!stored?.ok) {
      const message = stored
        ? `Not remembered: ${stored.message}`
        : !category
        ? "Choose a category."
        : `A fact needs 1 to ${maxFactChars} characters.`;
      if (isHtmx(c)) return renderFragment(c, <Notice kind="warning">{message}</Notice>, 422);
      return renderPage(
        c,
        context,
        { title: "Memory", active: "/memory", status: 422 },
        <Notice kind="warning">
          {message} <a href="/memory">Back</a>
        </Notice>,
      );
    }
    return redirectAfterPost(c, "/memory");
  });

  /** Runs `then` on the fact named in the path; 404 when absent (or hidden, unless `hidden`). */
  const withFact = async (
    c: Context,
    then: (id: number) => Response | Promise<Response>,
    hidden: "hide" | "allow" = "hide",
  ) => {
    const id = parseId(c.req.param("id"));
    const found = id ? deps.facts.getFact(id) : undefined;
    const fact = hidden === "allow" ? found : await memory.visible(found);
    if (!fact || !id) return renderFragment(c, <Notice kind="warning">No such fact.</Notice>, 404);
    return then(id);
  };

  /** The fact's row as it is stored now. */
  const factRow = (c: Context, id: number) =>
    renderFragment(c, <FactRow fact={deps.facts.getFact(id)!} timeZone={context.timeZone()} />);

  app.get("/memory/:id{[0-9]+}", (c) => withFact(c, (id) => factRow(c, id)));
  app.get(
    "/memory/:id{[0-9]+}/edit",
    (c) => withFact(c, (id) => renderFragment(c, <FactEditor fact={deps.facts.getFact(id)!} />)),
  );
  app.post("/memory/:id{[0-9]+}", (c) =>
    withFact(c, async (id) => {
      const content = field(await c.req.parseBody(), "content");
      const fact = deps.facts.getFact(id)!;
      const invalid = !content || content.length > maxFactChars;
      const stored = invalid ? undefined : await memory.update(fact, content, deps.clock.now());
      if (!stored?.ok) {
        const error = stored
          ? `Not saved: ${stored.message}`
          : `A fact needs 1 to ${maxFactChars} characters.`;
        return renderFragment(c, <FactEditor fact={fact} error={error} />, 422);
      }
      if (!isHtmx(c)) return c.redirect("/memory", 303);
      return factRow(c, id);
    }));
  const forget = (c: Context) =>
    withFact(c, (id) => {
      deps.facts.forgetFact(id);
      return isHtmx(c) ? c.html("") : c.redirect("/memory", 303);
    }, "allow");
  app.post("/memory/:id{[0-9]+}/forget", forget);
  app.delete("/memory/:id{[0-9]+}", forget);
  return app;
}
