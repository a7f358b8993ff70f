/**
 * Views of "act while I'm away": pending approvals (the exact call, why, what the run had read;
 * Approve / Deny / Always allow…), standing grants (Revoke), and recent file changes (Undo). Every
 * argument and reason is model- or page-made text: JSX escapes it.
 */
import {
  type ApprovalRecord,
  decidedWhere,
  type JournalEntry,
  notUndoableNote,
  type StandingGrant,
} from "../../src/away/mod.ts";
import { formatTime, prettyArguments, truncate } from "./format.ts";
import { TableHead } from "./table_head.tsx";

/** One approval as a card; pending ones carry their three buttons. */
export function ApprovalCard(
  props: { record: ApprovalRecord; compact?: boolean; timeZone: string | undefined },
) {
  const { record } = props;
  const pending = record.state === "pending";
  return (
    <article class="card approval" data-approval={String(record.id)} data-state={record.state}>
      <h3>
        <a href={`/approvals/${record.id}`}>#{record.id}</a> {record.tool}{" "}
        <span class={`badge ${record.state}`}>{record.state}</span>
      </h3>
      <pre class="code">{truncate(record.summary ?? prettyArguments(record.arguments), props.compact ? 400 : 4000)}</pre>
      {record.hasScreenshot && !props.compact
        ? (
          <img
            class="approval-screenshot"
            src={`/approvals/${record.id}/screenshot.png`}
            alt={`The page approval #${record.id} would submit`}
          />
        )
        : null}
      <dl class="facts">
        <dt>why</dt>
        <dd>
          <ul class="plain">
            {record.reasons.map((reason, index) => <li key={index}>{truncate(reason, 300)}</li>)}
          </ul>
        </dd>
        <dt>run</dt>
        <dd>
          {record.kind}
          {record.conversationId === undefined ? null : (
            <>
              {" "}
              <a href={`/history/${record.conversationId}`}>
                conversation #{record.conversationId}
              </a>
            </>
          )}
        </dd>
        <dt>had read</dt>
        <dd>{record.untrustedSources.join(", ") || "nothing from outside"}</dd>
        <dt>{pending ? "expires" : "decided"}</dt>
        <dd>
          {formatTime(pending ? record.expiresAt : record.decidedAt, props.timeZone)}
          {record.decidedVia ? ` (${decidedWhere(record.decidedVia)})` : ""}
        </dd>
        {record.result
          ? (
            <>
              <dt>result</dt>
              <dd>{truncate(record.result, 600)}</dd>
            </>
          )
          : null}
      </dl>
      {pending
        ? (
          <div class="actions">
            <form method="post" action={`/approvals/${record.id}/approve`} class="inline">
              <button type="submit">Approve</button>
            </form>
            <form method="post" action={`/approvals/${record.id}/deny`} class="inline">
              <button type="submit" class="secondary">Deny</button>
            </form>
            <a href={`/approvals/${record.id}/always`} class="button-link">Always allow…</a>
          </div>
        )
        : null}
    </article>
  );
}

/** The form "Always allow…" shows: one editable glob per argument, suggested from the call. */
export function AlwaysAllowForm(
  props: { record: ApprovalRecord; suggested: Record<string, string>; error?: string },
) {
  const { record, suggested } = props;
  return (
    <form method="post" action={`/approvals/${record.id}/always`} class="stack always-allow">
      <p>
        Approve #{record.id} now, and from now on let <code>{record.tool}</code>{" "}
        run without asking whenever its arguments match these patterns (globs; paths with{" "}
        <code>~</code>; arguments left empty are not checked):
      </p>
      {Object.entries(suggested).map(([name, pattern]) => (
        <label>
          {name}
          <input name={`arg.${name}`} value={pattern} maxlength={1000} />
        </label>
      ))}
      <label>
        Note
        <input name="note" value={`from approval #${record.id}`} maxlength={300} />
      </label>
      <p class="muted">
        A grant never covers protected places or Radar's own folders, and never widens what the
        sandbox or a plugin may do.
      </p>
      <button type="submit">Always allow and approve</button>
    </form>
  );
}

/** The standing grants, with Revoke for stored ones. */
export function GrantTable(
  props: { grants: Array<StandingGrant & { problems: string[] }>; timeZone: string | undefined },
) {
  if (!props.grants.length) return <p class="muted">No standing grants.</p>;
  return (
    <table class="grants">
      <TableHead columns={["id", "tool", "arguments", "note", "used", ""]} />
      <tbody>
        {props.grants.map((grant) => (
          <tr data-grant={grant.id}>
            <td>{grant.id}</td>
            <td>{grant.tool}</td>
            <td>
              {Object.entries(grant.arguments).map(([name, pattern]) => (
                <div>
                  <code>{name}={pattern}</code>
                </div>
              ))}
              {grant.problems.map((problem, index) => (
                <div key={index} class="bad">ignored: {problem}</div>
              ))}
            </td>
            <td>{grant.note}</td>
            <td>
              {grant.uses
                ? `${grant.uses}× (${formatTime(grant.lastUsedAt, props.timeZone)})`
                : "never"}
            </td>
            <td>
              {grant.origin === "config"
                ? <span class="muted">radar.yaml</span>
                : (
                  <form method="post" action={`/grants/${grant.id}/revoke`} class="inline">
                    <button type="submit" class="danger small">Revoke</button>
                  </form>
                )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Recent file changes, with Undo while they are not undone. */
export function ChangeList(
  props: {
    entries: JournalEntry[];
    display: (path: string) => string;
    timeZone: string | undefined;
  },
) {
  const { entries, display } = props;
  if (!entries.length) return <p class="muted">No file changes recorded.</p>;
  return (
    <ul class="plain changes">
      {entries.map((entry) => (
        <li data-change={String(entry.id)}>
          <span class="muted">#{entry.id} {formatTime(entry.at, props.timeZone)}</span> {entry.kind}
          {" "}
          {entry.from ? <>{display(entry.from)} →{" "}</> : null}
          {display(entry.path)}
          {entry.approvalId === undefined
            ? null
            : <span class="muted">(approval #{entry.approvalId})</span>} {notUndoableNote(entry)
            ? <span class="muted">{notUndoableNote(entry)}</span>
            : (
              <form method="post" action={`/actions/${entry.id}/undo`} class="inline">
                <button type="submit" class="secondary small">Undo</button>
              </form>
            )}
        </li>
      ))}
    </ul>
  );
}

/** The home page's card: what waits for a yes (render it only when something does). */
export function WaitingCard(props: { pending: ApprovalRecord[]; timeZone: string | undefined }) {
  return (
    <section class="card" id="waiting-approvals">
      <h2>Waiting for your yes</h2>
      {props.pending.slice(0, 5).map((record) => (
        <ApprovalCard key={record.id} record={record} compact timeZone={props.timeZone} />
      ))}
      {props.pending.length > 5
        ? (
          <p>
            <a href="/approvals">and {props.pending.length - 5} more</a>
          </p>
        )
        : null}
    </section>
  );
}
