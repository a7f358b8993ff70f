/** The sources' health records as the lines of `radar status`. */
import { type SourceHealthRecord, type SourceKind, sourceLabel } from "../core/source_ports.ts";

function when(iso: string): string {
  return iso.slice(0, 16).replace("T", " ") + " UTC";
}

/** "ok (last check …)", "FAILING (2× in a row, last …; next try …): error", "not used: why". */
export function sourceStateText(record: SourceHealthRecord): string {
  const last = record.lastCheckAt
    ? `last ${record.kind === "check" ? "run " : record.state === "ok" ? "check " : ""}${
      when(record.lastCheckAt)
    }`
    : undefined;
  const facts = [
    record.failures > 0 ? `${record.failures}× in a row` : undefined,
    last,
    record.durationMs !== undefined ? `${record.durationMs} ms` : undefined,
    record.tools !== undefined ? `${record.tools} tools` : undefined,
  ].filter((fact) => fact !== undefined);
  switch (record.state) {
    case "ok":
      if (record.note) facts.push(record.note);
      return `ok${facts.length ? ` (${facts.join(", ")})` : ""}`;
    case "failing": {
      const next = record.nextCheckAt ? `; next try ${when(record.nextCheckAt)}` : "";
      const context = facts.length || next ? ` (${facts.join(", ")}${next})` : "";
      return `FAILING${context}: ${record.lastError ?? "unknown error"}`;
    }
    case "unchecked":
      return `not checked yet${record.note ? ` (${record.note})` : ""}`;
    case "disabled":
      return `not used${record.note ? `: ${record.note}` : ""}`;
  }
}

const ofKinds = (records: SourceHealthRecord[], kinds: SourceKind[]) =>
  records.filter((record) => kinds.includes(record.kind));

const indented = (records: SourceHealthRecord[]) =>
  records.map((record) => `  ${sourceLabel(record)}: ${sourceStateText(record)}`);

/**
 * `radar status` lines: "sources:" (email and calendars, or that there are none), "mcp:" and
 * "checks:" (only when some are configured), each with one indented line per source, one
 * "github:" line, and "money:" (the statements folder and the categoriser, when in use).
 */
export function sourceHealthLines(records: SourceHealthRecord[]): string[] {
  const mail = ofKinds(records, ["email", "calendar"]);
  const servers = ofKinds(records, ["mcp"]);
  const checks = ofKinds(records, ["check"]);
  const github = ofKinds(records, ["github"]);
  const money = ofKinds(records, ["money"]);
  return [
    ...(mail.length
      ? ["sources:", ...indented(mail)]
      : ["sources:   no email accounts or calendars configured"]),
    ...(servers.length ? [`mcp:       ${servers.length} server(s)`, ...indented(servers)] : []),
    ...(checks.length ? ["checks:", ...indented(checks)] : []),
    ...github.map((record) => `github:    ${sourceStateText(record)}`),
    ...(money.length ? ["money:", ...indented(money)] : []),
  ];
}
