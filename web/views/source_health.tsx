/**
 * The event sources' health on the dashboard home, rendered from the records `radar status`
 * prints (`SourceHealthRecord`): email accounts and calendars, MCP servers, custom checks and
 * GitHub, each marked good (ok), bad (failing) or muted (not checked yet, not used). Every field
 * is text: JSX escapes it, so an error message from a server cannot add markup.
 */
import {
  type SourceHealthRecord,
  type SourceKind,
  sourceLabel,
  type SourceState,
} from "../../src/core/source_ports.ts";
import { formatTime } from "./format.ts";

/** The card's groups, in `radar status` order. */
const groups: Array<{ title: string; kinds: SourceKind[] }> = [
  { title: "Email and calendars", kinds: ["email", "calendar"] },
  { title: "MCP servers", kinds: ["mcp"] },
  { title: "Checks", kinds: ["check"] },
  { title: "GitHub", kinds: ["github"] },
  { title: "Money", kinds: ["money"] },
];

/** The words and class each state shows with. */
const stateLooks: Record<SourceState, { text: string; class: "good" | "bad" | "muted" }> = {
  ok: { text: "ok", class: "good" },
  failing: { text: "failing", class: "bad" },
  unchecked: { text: "not checked yet", class: "muted" },
  disabled: { text: "not used", class: "muted" },
};

/** The facts beside a record's state, in reading order ("2× in a row", "last check …"…). */
export function sourceFacts(record: SourceHealthRecord): string[] {
  const facts: string[] = [];
  if (record.failures > 0) facts.push(`${record.failures}× in a row`);
  if (record.lastCheckAt) facts.push(`last check ${formatTime(record.lastCheckAt)} UTC`);
  if (record.nextCheckAt && record.state === "failing") {
    facts.push(`next try ${formatTime(record.nextCheckAt)} UTC`);
  }
  if (record.durationMs !== undefined) facts.push(`${record.durationMs} ms`);
  if (record.tools !== undefined) facts.push(`${record.tools} tools`);
  if (record.note) facts.push(record.note);
  return facts;
}

function SourceItem(props: { record: SourceHealthRecord }) {
  const { record } = props;
  const look = stateLooks[record.state];
  const facts = sourceFacts(record);
  const label = sourceLabel(record);
  return (
    <li data-source={`${record.kind} ${record.name}`} data-state={record.state}>
      <strong>{label}</strong> <span class={look.class}>{look.text}</span>
      {facts.length ? <span class="muted">{` · ${facts.join(" · ")}`}</span> : null}
      {record.lastError ? <div class="bad">{record.lastError}</div> : null}
    </li>
  );
}

/** The sources' health, grouped by kind; a group without sources is left out. */
export function SourceHealthList(props: { records: SourceHealthRecord[] }) {
  const shown = groups
    .map((group) => ({
      title: group.title,
      records: props.records.filter((record) => group.kinds.includes(record.kind)),
    }))
    .filter((group) => group.records.length);
  if (!shown.length) return <p class="muted">No event sources configured.</p>;
  return (
    <ul class="plain source-health">
      {shown.map((group) => (
        <li>
          <strong>{group.title}</strong>
          <ul>
            {group.records.map((record) => (
              <SourceItem key={`${record.kind} ${record.name}`} record={record} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
