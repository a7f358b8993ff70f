/**
 * The call an approval would run, whole: never cut, wrapped to the screen (a phone's too). A
 * browser submission shows its summary (the page, the method, the absolute target with its origin
 * named when it is another site, every field, hidden ones too, passwords masked); a file write its
 * change as a diff when one was taken when it was asked; any other call each argument in full.
 * Everything here is model- or page-made text: JSX escapes it.
 */
import { type ApprovalRecord, previewBaseLine } from "../../src/away/mod.ts";
import { parseArgumentsText } from "../../src/core/tool_registry.ts";

/** The whole call of `record`. */
export function ApprovalCall(
  props: {
    record: Pick<ApprovalRecord, "tool" | "arguments" | "summary" | "preview" | "previewBase">;
  },
) {
  const { record } = props;
  if (record.summary !== undefined) return <pre class="call">{record.summary}</pre>;
  const parsed = parseArgumentsText(record.arguments);
  const entries = parsed.ok ? Object.entries(parsed.value) : [];
  if (!entries.length && record.arguments.trim() && record.arguments.trim() !== "{}") {
    return <pre class="call">{record.arguments}</pre>;
  }
  return (
    <>
      <dl class="call">
        {entries.map(([name, value]) => (
          <>
            <dt>{name}</dt>
            <dd>
              {name === "content" && record.preview ? "(the change below)" : valueText(value)}
            </dd>
          </>
        ))}
      </dl>
      {record.preview ? <Diff text={record.preview} /> : null}
      {record.preview && record.previewBase
        ? <p class="muted">{previewBaseLine(record.previewBase)}</p>
        : null}
    </>
  );
}

/** A unified diff, its added and removed lines marked (by class: the CSP allows no style). */
function Diff(props: { text: string }) {
  return (
    <pre class="call diff">
      {props.text.split("\n").map((line) => (
        <span class={line.startsWith("+") ? "added" : line.startsWith("-") ? "removed" : undefined}>
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}

/** An argument's value as text: a string as it is, anything else as indented JSON. */
function valueText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
