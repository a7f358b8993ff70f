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
import { formatTime, truncate } from "./format.ts";
import { ApprovalCall } from "./approval_call.tsx";
import { Table } from "./table.tsx";

/** One approval as a card: the whole call; pending ones carry their three buttons. */
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
      <ApprovalCall record={record} />
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
            {record.reasons.map((reason, index) => <li key={index}>{reason}</li>)}
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
        {sendsPrivateData(record)
          ? (
            <>
              <dt>private data to</dt>
              <dd>
                {record.destinations === "anywhere" ? "anywhere" : record.destinations.join(", ")}
                {" "}
                (read from {(record.privateSources ?? []).join(", ")})
              </dd>
            </>
          )
          : null}
        <dt>{pending ? "expires" : "decided"}</dt>
        <dd>
          {formatTime(pending ? record.expiresAt : record.decidedAt, props.timeZone, {
            zone: true,
          })}
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
            <form method="post" action={`/approvals/${record.id}/approve`}>
              <Shown record={record} />
              <button type="submit">Approve</button>
            </form>
            <form method="post" action={`/approvals/${record.id}/deny`}>
              <button type="submit" class="secondary">Deny</button>
            </form>
            <a href={`/approvals/${record.id}/always`} class="button-link">Always allow…</a>
          </div>
        )
        : null}
    </article>
  );
}

/**
 * The page a notice's button opens (`/act/SECRET`): what the button does and a form that does it.
 * The whole call only to a browser logged in to the dashboard (the button's URL travels through
 * the notification server); to anyone else the tool, why, and the expiry. Approve is offered only
 * with the whole call on the page (its form carries the hash of what it shows); anyone else is
 * sent to log in first.
 */
export function ActPage(
  props: {
    action: "approve" | "deny" | "undo";
    /** The approval an approve or deny button is for. */
    record?: ApprovalRecord;
    /** What an undo button does, or a line for an approval. */
    summary: string;
    loggedIn: boolean;
    /** The login page that comes back here. */
    login: string;
    timeZone: string | undefined;
  },
) {
  const { record } = props;
  const label = props.action === "approve" ? "Approve" : props.action === "deny" ? "Deny" : "Undo";
  const decides = props.action !== "approve" || props.loggedIn;
  return (
    <form method="post" class="stack act">
      {record
        ? (
          <>
            <h2>
              {label} #{record.id}: {record.tool}
            </h2>
            {props.loggedIn
              ? (
                <>
                  <ApprovalCall record={record} />
                  <Shown record={record} />
                </>
              )
              : (
                <p class="muted">
                  <a href={props.login} class={decides ? undefined : "button-link"}>
                    Log in to see the whole call
                  </a>{" "}
                  {decides ? "before you decide." : "and approve it there."}
                </p>
              )}
            <dl class="facts">
              <dt>why</dt>
              <dd>{record.reasons.join("; ")}</dd>
              <dt>expires</dt>
              <dd>{formatTime(record.expiresAt, props.timeZone, { zone: true })}</dd>
            </dl>
          </>
        )
        : <p>{props.summary}</p>}
      {decides
        ? (
          <button type="submit" class={props.action === "approve" ? undefined : "secondary"}>
            {label}
          </button>
        )
        : null}
    </form>
  );
}

/**
 * The hash of what the page shows of an approval (`approval_shown.ts`): the yes is for this
 * version of the call only.
 */
function Shown(props: { record: ApprovalRecord }) {
  return props.record.shownHash
    ? <input type="hidden" name="shown" value={props.record.shownHash} />
    : null;
}

/** The form "Always allow…" shows: one editable glob per argument, suggested from the call. */
export function AlwaysAllowForm(
  props: { record: ApprovalRecord; suggested: Record<string, string>; error?: string },
) {
  const { record, suggested } = props;
  return (
    <form method="post" action={`/approvals/${record.id}/always`} class="stack always-allow">
      <Shown record={record} />
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
      {record.destinations !== "anywhere" && record.destinations?.length
        ? (
          <p>
            It may also send private data a run read to exactly{" "}
            <code>{record.destinations.join(", ")}</code>, as this call would have, and nowhere
            else.
          </p>
        )
        : null}
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
  props: {
    grants: Array<StandingGrant & { problems: string[]; limits: string[] }>;
    timeZone: string | undefined;
  },
) {
  if (!props.grants.length) return <p class="muted">No standing grants.</p>;
  return (
    <Table class="grants" columns={["id", "tool", "arguments", "note", "used", ""]}>
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
            {grant.limits.map((limit, index) => (
              <div key={`limit${index}`} class="muted">only: {limit}</div>
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
    </Table>
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

/** True when the approval asks because the call would send private data somewhere. */
function sendsPrivateData(record: ApprovalRecord): boolean {
  const destinations = record.destinations ?? [];
  return destinations === "anywhere" || destinations.length > 0;
}
