/**
 * The list of /personalities with its create form: name, description, kind, source and which
 * one is active; "Use" activates one, "Delete…" (editable ones only) leads to a confirmation.
 */
import { isAbsolute, relative, sep } from "node:path";
import type { PersonalitySummary } from "../../src/personalities/personality.ts";
import { truncate } from "./format.ts";
import { Table } from "./table.tsx";

/** The address of one personality's page (names are escaped into the path). */
export function personalityHref(name: string, action?: "use" | "delete"): string {
  return `/personalities/${encodeURIComponent(name)}${action ? `/${action}` : ""}`;
}

/**
 * The source column's short form: "bundled", "plugin NAME", or the file's path relative to the
 * data folder (`personalities/pirate.md`); a path outside the data folder is shown whole.
 */
export function shortPersonalitySource(
  personality: Pick<PersonalitySummary, "kind" | "source">,
  dataDir?: string,
): string {
  const { kind, source } = personality;
  if (kind === "bundled") return "bundled";
  if (kind === "plugin") return source.startsWith("plugin:") ? `plugin ${source.slice(7)}` : source;
  if (!dataDir || !isAbsolute(source)) return source;
  const inside = relative(dataDir, source);
  return inside && !isAbsolute(inside) && inside !== ".." && !inside.startsWith(`..${sep}`)
    ? inside
    : source;
}

/** Every personality, the active one marked; `dataDir` shortens the sources in it. */
export function PersonalityTable(props: { personalities: PersonalitySummary[]; dataDir?: string }) {
  if (!props.personalities.length) return <p class="muted">No personalities found.</p>;
  return (
    <Table class="list personalities" columns={["name", "description", "kind", "source", ""]}>
      {props.personalities.map((personality) => (
        <tr data-personality={personality.name}>
          <td>
            <a href={personalityHref(personality.name)}>{personality.name}</a>
            {personality.active ? <span class="badge status-enabled">active</span> : null}
          </td>
          <td>{truncate(personality.description, 160)}</td>
          <td>
            <span class="badge">{personality.kind}</span>
          </td>
          <td class="muted" title={personality.source}>
            {shortPersonalitySource(personality, props.dataDir)}
          </td>
          <td class="actions">
            {personality.active ? null : (
              <form
                method="post"
                action={personalityHref(personality.name, "use")}
                class="inline"
              >
                <button type="submit" class="small secondary">Use {personality.name}</button>
              </form>
            )}
            {personality.editable
              ? (
                <a href={personalityHref(personality.name, "delete")} class="small">
                  Delete {personality.name}…
                </a>
              )
              : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The create form: a name and whether it is a directory personality (with context/). */
export function CreatePersonalityForm() {
  return (
    <details>
      <summary>Create a personality</summary>
      <form method="post" action="/personalities" class="stack">
        <input
          name="name"
          required
          maxlength={64}
          placeholder="name, e.g. concise"
          aria-label="Personality name"
        />
        <label>
          <input type="checkbox" name="directory" value="yes" />{" "}
          Directory personality (a folder with PERSONALITY.md and context/ documents)
        </label>
        <button type="submit">Create</button>
      </form>
    </details>
  );
}
