/** The chat channels' outgoing messages and their receipts (`channel_outbound`). */
import type { DatabaseSync } from "node:sqlite";
import type { ChannelName } from "../../core/channel.ts";
import type { ChannelOutbox, NewOutbound, OutboundRecord } from "../../core/channel_stores.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { insertUnlessPresent, transaction, write } from "./write.ts";

const columns = columnsOf<OutboundRecord>()(
  `id channel chat_id purpose dedupe_key text subject reply_to edit_of approval_id owner_id state attempts
   next_attempt_at last_error created_at sent_at external_id closed_at`,
);

function outboundRecord(row: Row): OutboundRecord {
  return {
    ...camelRecord<OutboundRecord>(row, columns),
    buttons: row.buttons ? JSON.parse(String(row.buttons)) : undefined,
  };
}

/** Outgoing channel messages in SQLite. */
export class SqliteChannelOutbox implements ChannelOutbox {
  constructor(private readonly db: DatabaseSync) {}

  enqueue(message: NewOutbound, at: Date): number | undefined {
    return insertUnlessPresent(
      this.db,
      "the message to send",
      `INSERT OR IGNORE INTO channel_outbound (channel, chat_id, purpose, dedupe_key, text, buttons,
         subject, reply_to, edit_of, approval_id, owner_id, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      message.channel,
      message.chatId,
      message.purpose,
      message.dedupeKey ?? null,
      message.text,
      message.buttons?.length ? JSON.stringify(message.buttons) : null,
      message.subject ?? null,
      message.replyTo ?? null,
      message.editOf ?? null,
      message.approvalId ?? null,
      message.ownerId ?? null,
      at.toISOString(),
      at.toISOString(),
    );
  }

  claimDue(
    channel: ChannelName,
    pid: number,
    isAlive: (pid: number) => boolean,
    at: Date,
    limit: number,
  ): OutboundRecord[] {
    return transaction(this.db, () => {
      const candidates = selectAll(
        this.db,
        (row) => ({ record: outboundRecord(row), claimedBy: row.claimed_by as number | null }),
        `SELECT * FROM channel_outbound
         WHERE channel = ? AND (
           (state IN ('pending', 'failed') AND next_attempt_at <= ?) OR state = 'sending')
         ORDER BY id LIMIT ?`,
        channel,
        at.toISOString(),
        limit * 4,
      );
      const due = candidates.filter(({ record, claimedBy }) =>
        record.state !== "sending" ||
        (claimedBy !== null && claimedBy !== pid && !isAlive(claimedBy))
      ).slice(0, limit).map(({ record }) => record);
      for (const record of due) {
        write(
          this.db,
          "the message to send",
          `UPDATE channel_outbound SET state = 'sending', claimed_by = ?, attempts = attempts + 1
           WHERE id = ?`,
          pid,
          record.id,
        );
      }
      return due.map((record) => ({ ...record, state: "sending", attempts: record.attempts + 1 }));
    }, "the messages to send");
  }

  markSent(id: number, externalId: string | undefined, at: Date): void {
    write(
      this.db,
      "the sent message",
      `UPDATE channel_outbound SET state = 'sent', sent_at = ?, external_id = ?, claimed_by = NULL,
         last_error = NULL WHERE id = ?`,
      at.toISOString(),
      externalId ?? null,
      id,
    );
  }

  markFailed(id: number, error: string, retryAt: Date | undefined, at: Date): void {
    write(
      this.db,
      "the message to send",
      `UPDATE channel_outbound SET state = ?, last_error = ?, next_attempt_at = ?, claimed_by = NULL
       WHERE id = ?`,
      retryAt ? "failed" : "undeliverable",
      error.slice(0, 500),
      (retryAt ?? at).toISOString(),
      id,
    );
  }

  get(id: number): OutboundRecord | undefined {
    return selectOne(this.db, outboundRecord, "SELECT * FROM channel_outbound WHERE id = ?", id);
  }

  openAsks(channel: ChannelName): OutboundRecord[] {
    return selectAll(
      this.db,
      outboundRecord,
      `SELECT * FROM channel_outbound
       WHERE channel = ? AND purpose = 'ask' AND state = 'sent' AND closed_at IS NULL ORDER BY id`,
      channel,
    );
  }

  close(id: number, edit: NewOutbound | undefined, at: Date): boolean {
    return transaction(this.db, () => {
      const closed = write(
        this.db,
        "the question",
        "UPDATE channel_outbound SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
        at.toISOString(),
        id,
      ).changes > 0;
      if (closed && edit) this.enqueue(edit, at);
      return closed;
    }, "the closed question");
  }

  list(limit: number): OutboundRecord[] {
    return selectAll(
      this.db,
      outboundRecord,
      "SELECT * FROM channel_outbound ORDER BY id DESC LIMIT ?",
      limit,
    );
  }

  counts(channel: ChannelName): { waiting: number; undeliverable: number } {
    return selectOne(
      this.db,
      (row) => ({
        waiting: Number(row.waiting ?? 0),
        undeliverable: Number(row.undeliverable ?? 0),
      }),
      `SELECT sum(state IN ('pending', 'sending', 'failed')) AS waiting,
         sum(state = 'undeliverable') AS undeliverable
       FROM channel_outbound WHERE channel = ?`,
      channel,
    ) ?? { waiting: 0, undeliverable: 0 };
  }

  nextDue(channel: ChannelName): string | undefined {
    return selectOne(
      this.db,
      (row) => row.next_at === null ? undefined : String(row.next_at),
      `SELECT min(next_attempt_at) AS next_at FROM channel_outbound
       WHERE channel = ? AND state IN ('pending', 'failed')`,
      channel,
    );
  }
}
