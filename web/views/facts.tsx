/** Fact rows for /memory: view, inline edit form, forget button. */
import type { Fact } from "../../src/core/ports.ts";
import { formatTime } from "./format.ts";

/** One fact as a table row with edit and forget buttons (htmx swaps the row). */
export function FactRow(props: { fact: Fact; timeZone: string | undefined }) {
  const { fact } = props;
  const id = `fact-${fact.id}`;
  return (
    <tr id={id} class={fact.category === "personality_note" ? "personality" : undefined}>
      <td class="muted">{fact.id}</td>
      <td>
        {fact.category === "personality_note"
          ? <span class="badge personality">personality</span>
          : null} <span class="fact-content">{fact.content}</span>
      </td>
      <td class="muted">{formatTime(fact.updatedAt, props.timeZone)}</td>
      <td class="actions">
        <button
          type="button"
          class="secondary small"
          hx-get={`/memory/${fact.id}/edit`}
          hx-target={`#${id}`}
          hx-swap="outerHTML"
        >
          Edit
        </button>
        <form
          method="post"
          action={`/memory/${fact.id}/forget`}
          hx-post={`/memory/${fact.id}/forget`}
          hx-target={`#${id}`}
          hx-swap="outerHTML"
          hx-confirm="Forget this fact?"
        >
          <button type="submit" class="danger small">Forget</button>
        </form>
      </td>
    </tr>
  );
}

/** The inline editor that replaces a row. */
export function FactEditor(props: { fact: Fact; error?: string }) {
  const { fact } = props;
  const id = `fact-${fact.id}`;
  return (
    <tr id={id} class="editing">
      <td class="muted">{fact.id}</td>
      <td colspan={2}>
        <form
          method="post"
          action={`/memory/${fact.id}`}
          hx-post={`/memory/${fact.id}`}
          hx-target={`#${id}`}
          hx-swap="outerHTML"
          class="stack"
        >
          {props.error ? <div class="notice warning">{props.error}</div> : null}
          <textarea name="content" rows={2} required aria-label="Fact">{fact.content}</textarea>
          <div class="row">
            <button type="submit" class="small">Save</button>
            <button
              type="button"
              class="secondary small"
              hx-get={`/memory/${fact.id}`}
              hx-target={`#${id}`}
              hx-swap="outerHTML"
            >
              Cancel
            </button>
          </div>
        </form>
      </td>
      <td></td>
    </tr>
  );
}

/** A table of facts. */
export function FactTable(props: { facts: Fact[]; timeZone: string | undefined }) {
  if (!props.facts.length) return <p class="muted">Nothing found.</p>;
  return (
    <table class="list facts-table">
      <tbody>{props.facts.map((fact) => <FactRow fact={fact} timeZone={props.timeZone} />)}</tbody>
    </table>
  );
}
