/**
 * The home page's card for heartbeat events a `pre_agent_run` hook set aside (3 blocked
 * heartbeats in a row): how many, the hook's newest message, the newest events' summaries, and a
 * plain form that puts them back in the queue. Summaries come from mail, pages and plugins and the
 * reason from a hook: all are text, escaped by JSX.
 */
import type { PendingEvent } from "../../src/core/heartbeat.ts";
import { formatTime, truncate } from "./format.ts";
import { Notice } from "./layout.tsx";

/** Where the card's form posts. */
export const requeueAction = "/heartbeat/requeue";

/** The card (render it only when something is set aside). */
export function SetAsideCard(
  props: {
    count: number;
    lastReason?: string;
    events: PendingEvent[];
    timeZone: string | undefined;
  },
) {
  const { count, lastReason, events } = props;
  const more = count - events.length;
  return (
    <section class="card" id="set-aside">
      <h2>Set aside by a hook</h2>
      <p>
        <strong>{count}</strong> {count === 1 ? "event was" : "events were"}{" "}
        set aside: a hook blocked 3 heartbeats in a row while they waited, so the model never saw
        them.
      </p>
      <dl class="facts">
        <dt>last reason</dt>
        <dd class="bad">{lastReason ?? "(no message)"}</dd>
      </dl>
      <ul class="plain">
        {events.map((event) => (
          <li data-event={String(event.id)}>
            <span class="muted">{formatTime(event.createdAt, props.timeZone)} {event.source}</span>
            {" "}
            {truncate(event.summary, 200)}
          </li>
        ))}
      </ul>
      {more > 0 ? <p class="muted">and {more} more</p> : null}
      <form method="post" action={requeueAction}>
        <button type="submit">Put back in the queue</button>
      </form>
    </section>
  );
}

/** "N events are back in the queue" after the form's redirect (`?requeued=N`), else nothing. */
export function RequeuedNotice(props: { count: string | undefined }) {
  if (!/^\d{1,9}$/.test(props.count ?? "")) return null;
  const count = Number(props.count);
  return (
    <Notice>
      {count === 1 ? "1 event is" : `${count} events are`}{" "}
      back in the queue: the next heartbeat sees them.
    </Notice>
  );
}
