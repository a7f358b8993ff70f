/**
 * One personality on /personalities/NAME: what it sets (model, temperature, tools, context
 * documents, prompt size) and the whole file in a textarea (editable ones) or read-only text.
 * The file is user or plugin text: JSX escapes it, nothing is rendered as HTML.
 */
import type { PersonalityDetails } from "../../src/personalities/personality.ts";
import { Notice } from "./layout.tsx";
import { personalityHref } from "./personalities.tsx";
import { DefinitionList } from "./definition_list.tsx";

/** The most characters a personality file may have when saved from the dashboard. */
export const maxPersonalityChars = 100_000;

function Settings(props: { personality: PersonalityDetails }) {
  const { personality } = props;
  const tools = personality.tools;
  return (
    <DefinitionList
      lines={[
        ["description", personality.description || "—"],
        ["kind", personality.kind],
        ["source", <code>{personality.source}</code>],
        ["active", personality.active ? "yes" : "no", personality.active ? "good" : undefined],
        personality.model ? ["model", personality.model] : null,
        personality.temperature !== undefined ? ["temperature", personality.temperature] : null,
        tools?.include?.length ? ["tools only", tools.include.join(", ")] : null,
        tools?.exclude?.length ? ["tools never", tools.exclude.join(", ")] : null,
        personality.contextDocuments.length
          ? [
            "context",
            <ul class="plain">
              {personality.contextDocuments.map((document) => (
                <li>
                  <code>{document.name}</code> {document.description}
                </li>
              ))}
            </ul>,
          ]
          : null,
        ["system prompt", `about ${personality.promptTokens} tokens`],
      ]}
    />
  );
}

/** The page body of one personality. */
export function PersonalityEditor(props: { personality: PersonalityDetails; message?: string }) {
  const { personality } = props;
  const action = personalityHref(personality.name);
  return (
    <>
      {props.message ? <Notice>{props.message}</Notice> : null}
      {personality.warning ? <Notice kind="warning">{personality.warning}</Notice> : null}
      <Settings personality={personality} />
      {personality.active
        ? null
        : (
          <form method="post" action={personalityHref(personality.name, "use")} class="inline">
            <button type="submit" class="secondary">Use {personality.name}</button>
          </form>
        )}
      <section>
        <h2>File</h2>
        {personality.editable
          ? (
            <form method="post" action={action} class="stack" id="personality-form">
              <textarea
                name="text"
                rows={24}
                spellcheck={false}
                class="code"
                aria-label="Personality file"
                maxlength={maxPersonalityChars}
              >
                {/* A textarea drops one leading newline: this one, never the file's own. */}
                {"\n" + personality.text}
              </textarea>
              <div class="row">
                <button type="submit">Save</button>
                <a href={personalityHref(personality.name, "delete")}>Delete…</a>
              </div>
            </form>
          )
          : (
            <>
              <p class="muted">
                A {personality.kind} personality is read-only; create your own to change it.
              </p>
              <pre class="code">{personality.text}</pre>
            </>
          )}
      </section>
      <p>
        <a href="/personalities">All personalities</a>
      </p>
    </>
  );
}

/** The confirmation step before deleting. */
export function DeletePersonalityConfirmation(props: { name: string }) {
  return (
    <Notice kind="warning">
      <p>
        Delete the personality <strong>{props.name}</strong>? Its file (or folder) is removed.
      </p>
      <form method="post" action={personalityHref(props.name, "delete")} class="row">
        <button type="submit" class="danger">Delete {props.name}</button>
        <a href={personalityHref(props.name)}>Cancel</a>
      </form>
    </Notice>
  );
}
