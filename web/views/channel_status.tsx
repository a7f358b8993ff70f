/**
 * The chat channels on the dashboard home: each configured channel's state as the daemon last
 * reported it (connected, connecting, failing, stopped), the last message in and out, what
 * waits, and the last error, from the records `radar status` prints. Every field is text: JSX
 * escapes it, so an error message from a service cannot add markup.
 */
import type { ChannelStatus } from "../../src/core/channel_stores.ts";
import { formatTime } from "./format.ts";

const stateClass: Record<ChannelStatus["state"], "good" | "bad" | "muted"> = {
  connected: "good",
  connecting: "muted",
  failing: "bad",
  stopped: "muted",
  "not started": "muted",
};

/** The channels' list (the card is left out when none is configured). */
export function ChannelStatusList(props: { list: ChannelStatus[]; timeZone: string | undefined }) {
  const when = (iso?: string) => iso ? formatTime(iso, props.timeZone, { zone: true }) : "never";
  return (
    <ul class="plain channel-status">
      {props.list.map((status) => (
        <li data-channel={status.channel} data-state={status.state}>
          <strong>{status.channel}</strong>{" "}
          <span class={stateClass[status.state]}>{status.state}</span>
          <span class="muted">
            {` · ${status.owners} owner${status.owners === 1 ? "" : "s"}` +
              ` · last in ${when(status.lastMessageAt)} · last out ${when(status.lastSentAt)}` +
              (status.waiting ? ` · ${status.waiting} to handle` : "") +
              (status.unsent ? ` · ${status.unsent} to send` : "") +
              (status.undeliverable ? ` · ${status.undeliverable} undeliverable` : "") +
              (status.notices ? " · gets notices" : "")}
          </span>
          {status.lastError
            ? <div class="bad">{`${when(status.lastErrorAt)}: ${status.lastError}`}</div>
            : null}
        </li>
      ))}
    </ul>
  );
}
