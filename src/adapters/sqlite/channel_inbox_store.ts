/** The chat channels' received messages and cursors (`channel_inbound`, `channel_cursors`). */
import type { DatabaseSync } from "node:sqlite";
import type { ChannelName, ReceivedMessage } from "../../core/channel.ts";
import type {
  ChannelInbox,
  InboundRecord,
  InboundState,
  InboundTurn,
} from "../../core/channel_stores.ts";
import { camelRecord, columnsOf, type Row, selectAll, selectOne } from "./rows.ts";
import { insertUnlessPresent, transaction, write } from "./write.ts";

const columns = columnsOf<InboundRecord>()(
  `id channel external_id chat_id sender_id sender_name text forwarded_from reply_to sent_at received_at state
   attempts claimed_by handled_at outcome`,
);

function inboundRecord(row: Row): InboundRecord {
  return {
    ...camelRecord<InboundRecord>(row, columns),
    verified: row.verified === 1,
    attachments: JSON.parse(String(row.attachments ?? "[]")),
    answer: row.answer ? JSON.parse(String(row.answer)) : undefined,
    thread: row.thread ? JSON.parse(String(row.thread)) : undefined,
    turn: row.turn ? JSON.parse(String(row.turn)) : undefined,
  };
}

/** Received channel messages in SQLite. */
export class SqliteChannelInbox implements ChannelInbox {
  constructor(private readonly db: DatabaseSync) {}

  store(
    channel: ChannelName,
    messages: readonly ReceivedMessage[],
    cursor: string | undefined,
    at: Date,
  ): number {
    return transaction(this.db, () => {
      let added = 0;
      for (const message of messages) {
        const id = insertUnlessPresent(
          this.db,
          "the received message",
          `INSERT OR IGNORE INTO channel_inbound (channel, external_id, chat_id, sender_id,
             sender_name, verified, text, attachments, answer, forwarded_from, reply_to, thread,
             sent_at, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          channel,
          message.externalId,
          message.chatId,
          message.senderId,
          message.senderName ?? null,
          message.verified ? 1 : 0,
          message.text,
          JSON.stringify(message.attachments),
          message.answer ? JSON.stringify(message.answer) : null,
          message.forwardedFrom ?? null,
          message.replyTo ?? null,
          message.thread ? JSON.stringify(message.thread) : null,
          message.sentAt ?? null,
          at.toISOString(),
        );
        if (id !== undefined) added++;
      }
      if (cursor !== undefined) {
        write(
          this.db,
          "the channel's position",
          `INSERT INTO channel_cursors (channel, cursor, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (channel) DO UPDATE SET cursor = excluded.cursor,
             updated_at = excluded.updated_at`,
          channel,
          cursor,
          at.toISOString(),
        );
      }
      return added;
    }, "the received messages");
  }

  cursor(channel: ChannelName): string | undefined {
    return selectOne(
      this.db,
      (row) => String(row.cursor),
      "SELECT cursor FROM channel_cursors WHERE channel = ?",
      channel,
    );
  }

  claim(pid: number, isAlive: (pid: number) => boolean): InboundRecord | undefined {
    return transaction(this.db, () => {
      const waiting = selectAll(
        this.db,
        inboundRecord,
        `SELECT * FROM channel_inbound WHERE state IN ('pending', 'handling') ORDER BY id LIMIT 50`,
      );
      const next = waiting.find((record) =>
        record.state === "pending" ||
        (record.claimedBy !== undefined && record.claimedBy !== pid && !isAlive(record.claimedBy))
      );
      if (!next) return undefined;
      write(
        this.db,
        "the received message",
        `UPDATE channel_inbound SET state = 'handling', claimed_by = ?, attempts = attempts + 1
         WHERE id = ?`,
        pid,
        next.id,
      );
      return { ...next, state: "handling", claimedBy: pid, attempts: next.attempts + 1 };
    }, "the received message");
  }

  beginTurn(id: number, turn: InboundTurn): void {
    write(
      this.db,
      "the chat turn",
      "UPDATE channel_inbound SET turn = ? WHERE id = ?",
      JSON.stringify(turn),
      id,
    );
  }

  finish(
    id: number,
    state: Exclude<InboundState, "pending" | "handling">,
    outcome: string,
    at: Date,
  ): void {
    write(
      this.db,
      "the received message",
      `UPDATE channel_inbound SET state = ?, outcome = ?, handled_at = ?, claimed_by = NULL
       WHERE id = ?`,
      state,
      outcome.slice(0, 500),
      at.toISOString(),
      id,
    );
  }

  withdraw(channel: ChannelName, externalId: string, at: Date): boolean {
    return write(
      this.db,
      "the received message",
      `UPDATE channel_inbound SET state = 'withdrawn', outcome = 'taken back by the sender',
         handled_at = ? WHERE channel = ? AND external_id = ? AND state = 'pending'`,
      at.toISOString(),
      channel,
      externalId,
    ).changes > 0;
  }

  get(id: number): InboundRecord | undefined {
    return selectOne(this.db, inboundRecord, "SELECT * FROM channel_inbound WHERE id = ?", id);
  }

  waiting(channel: ChannelName): number {
    return selectOne(
      this.db,
      (row) => Number(row.count),
      `SELECT count(*) AS count FROM channel_inbound
       WHERE channel = ? AND state IN ('pending', 'handling')`,
      channel,
    ) ?? 0;
  }
}
