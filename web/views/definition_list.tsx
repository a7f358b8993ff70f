import type { Child } from "hono/jsx";

/** One line of a DefinitionList: the term, its value, and the value's class (if any). */
export type Definition = [term: Child, value: Child, valueClass?: string];

/**
 * A `dl.facts` of terms and values. A line that is null, undefined or false is left out, so a
 * line shown only sometimes reads `condition ? [term, value] : null`.
 */
export function DefinitionList(
  props: { lines: ReadonlyArray<Definition | null | undefined | false>; class?: string },
) {
  return (
    <dl class={props.class ?? "facts"}>
      {props.lines.map((line) =>
        line
          ? (
            <>
              <dt>{line[0]}</dt>
              <dd {...(line[2] ? { class: line[2] } : {})}>{line[1]}</dd>
            </>
          )
          : null
      )}
    </dl>
  );
}
