/** The sources' health records as the lines of `radar status`. */
import { type SourceHealthRecord, type SourceKind, sourceLabel } from "../core/source_ports.ts";
import { formatDateTime } from "../core/zoned_time.ts";

/** "2026-11-23 11:00 UTC+01:00" in the zone (a stored time that is not one: as stored). */
function when(iso: string, timeZone?: string): string {
  const at = new Date(iso);
  return isNaN(at.getTime()) ? iso.slice(0, 40) : formatDateTime(at, timeZone, { zone: true });
}

/** "ok (last check …)", "FAILING (2× in a row, last …; next try …): error", "not used: why". */
export function sourceStateText(record: SourceHealthRecord, timeZone?: string): string {
  const last = record.lastCheckAt
    ? `last ${record.kind === "check" ? "run " : record.state === "ok" ? "check " : ""}${
      when(record.lastCheckAt, timeZone)
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
      const next = record.nextCheckAt ? `; next try ${when(record.nextCheckAt, timeZone)}` : "";
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

const indented = (records: SourceHealthRecord[], timeZone?: string) =>
  records.map((record) => `  ${sourceLabel(record)}: ${sourceStateText(record, timeZone)}`);

/**
 * `radar status` lines: "sources:" (email and calendars, or that there are none), "mcp:" and
 * "checks:" (only when some are configured), each with one indented line per source, one
 * "github:" line, and "money:" (the statements folder and the categoriser, when in use).
 */
export function sourceHealthLines(records: SourceHealthRecord[], timeZone?: string): string[] {
  const mail = ofKinds(records, ["email", "calendar"]);
  const servers = ofKinds(records, ["mcp"]);
  const checks = ofKinds(records, ["check"]);
  const github = ofKinds(records, ["github"]);
  const money = ofKinds(records, ["money"]);
  return [
    ...(mail.length
      ? ["sources:", ...indented(mail, timeZone)]
      : ["sources:   no email accounts or calendars configured"]),
    ...(servers.length
      ? [`mcp:       ${servers.length} server(s)`, ...indented(servers, timeZone)]
      : []),
    ...(checks.length ? ["checks:", ...indented(checks, timeZone)] : []),
    ...github.map((record) => `github:    ${sourceStateText(record, timeZone)}`),
    ...(money.length ? ["money:", ...indented(money, timeZone)] : []),
  ];
}
