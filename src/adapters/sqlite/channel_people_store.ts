/**
 * Who talks to Radar on the chat channels (`channel_owners`, `channel_pairings`,
 * `channel_strangers`, `channel_conversations`), the single-use approval answers
 * (`channel_answer_keys`) and each channel's health (`channel_health`).
 */
import type { DatabaseSync } from "node:sqlite";
import type { ChannelName } from "../../core/channel.ts";
import type {
  ChannelAnswerKeys,
  ChannelHealth,
  ChannelHealthPatch,
  ChannelHealthRecord,
  ChannelPeople,
  NewAnswerKey,
  OwnerChat,
  StrangerRecord,
} from "../../core/channel_stores.ts";
import { camelRecord, columnsOf, selectAll, selectOne } from "./rows.ts";
import { transaction, write } from "./write.ts";

const strangerColumns = columnsOf<StrangerRecord>()(
  "messages last_refusal_at failed_pairings last_failed_pairing_at",
);

/** Owners, pairing codes, strangers and conversations in SQLite. */
export class SqliteChannelPeople implements ChannelPeople {
  constructor(private readonly db: DatabaseSync) {}

  pairedOwners(channel: ChannelName): string[] {
    return selectAll(
      this.db,
      (row) => String(row.user_id),
      "SELECT user_id FROM channel_owners WHERE channel = ? ORDER BY paired_at",
      channel,
    );
  }

  addPairing(channel: ChannelName, codeHash: string, at: Date, expiresAt: Date): void {
    write(
      this.db,
      "the pairing code",
      `INSERT INTO channel_pairings (channel, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?)`,
      channel,
      codeHash,
      at.toISOString(),
      expiresAt.toISOString(),
    );
  }

  pair(channel: ChannelName, codeHash: string, userId: string, at: Date): boolean {
    return transaction(this.db, () => {
      const used = write(
        this.db,
        "the pairing",
        `UPDATE channel_pairings SET used_at = ?, used_by = ?
         WHERE channel = ? AND code_hash = ? AND used_at IS NULL AND expires_at > ?`,
        at.toISOString(),
        userId,
        channel,
        codeHash,
        at.toISOString(),
      ).changes > 0;
      if (!used) return false;
      write(
        this.db,
        "the pairing",
        `INSERT OR IGNORE INTO channel_owners (channel, user_id, paired_at) VALUES (?, ?, ?)`,
        channel,
        userId,
        at.toISOString(),
      );
      return true;
    }, "the pairing");
  }

  stranger(channel: ChannelName, senderId: string, at: Date): StrangerRecord {
    write(
      this.db,
      "the stranger's message",
      `INSERT INTO channel_strangers (channel, sender_id, first_seen_at, last_seen_at, messages)
       VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (channel, sender_id) DO UPDATE SET messages = messages + 1,
         last_seen_at = excluded.last_seen_at`,
      channel,
      senderId,
      at.toISOString(),
      at.toISOString(),
    );
    return selectOne(
      this.db,
      (row) => camelRecord<StrangerRecord>(row, strangerColumns),
      "SELECT * FROM channel_strangers WHERE channel = ? AND sender_id = ?",
      channel,
      senderId,
    )!;
  }

  refused(channel: ChannelName, senderId: string, at: Date): void {
    write(
      this.db,
      "the refusal",
      "UPDATE channel_strangers SET last_refusal_at = ? WHERE channel = ? AND sender_id = ?",
      at.toISOString(),
      channel,
      senderId,
    );
  }

  failedPairing(channel: ChannelName, senderId: string, at: Date): void {
    write(
      this.db,
      "the pairing attempt",
      `UPDATE channel_strangers SET failed_pairings = failed_pairings + 1,
         last_failed_pairing_at = ? WHERE channel = ? AND sender_id = ?`,
      at.toISOString(),
      channel,
      senderId,
    );
  }

  conversation(channel: ChannelName, chatId: string, senderId: string): number | undefined {
    return selectOne(
      this.db,
      (row) => Number(row.conversation_id),
      `SELECT conversation_id FROM channel_conversations
       WHERE channel = ? AND chat_id = ? AND sender_id = ?`,
      channel,
      chatId,
      senderId,
    );
  }

  setConversation(
    channel: ChannelName,
    chatId: string,
    senderId: string,
    conversationId: number,
    at: Date,
  ): void {
    write(
      this.db,
      "the chat's conversation",
      `INSERT INTO channel_conversations (channel, chat_id, sender_id, conversation_id, started_at,
         last_message_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (channel, chat_id, sender_id) DO UPDATE SET
         conversation_id = excluded.conversation_id, started_at = excluded.started_at,
         last_message_at = excluded.last_message_at`,
      channel,
      chatId,
      senderId,
      conversationId,
      at.toISOString(),
      at.toISOString(),
    );
  }

  touch(channel: ChannelName, chatId: string, senderId: string, at: Date): void {
    write(
      this.db,
      "the chat",
      `UPDATE channel_conversations SET last_message_at = ?
       WHERE channel = ? AND chat_id = ? AND sender_id = ?`,
      at.toISOString(),
      channel,
      chatId,
      senderId,
    );
  }

  latestChat(channel: ChannelName, owners: readonly string[]): OwnerChat | undefined {
    if (!owners.length) return undefined;
    return selectOne(
      this.db,
      (row) => ({
        chatId: String(row.chat_id),
        senderId: String(row.sender_id),
        conversationId: Number(row.conversation_id),
      }),
      `SELECT chat_id, sender_id, conversation_id FROM channel_conversations
       WHERE channel = ? AND sender_id IN (${owners.map(() => "?").join(", ")})
       ORDER BY last_message_at DESC LIMIT 1`,
      channel,
      ...owners,
    );
  }
}

/** Single-use approval answers in SQLite. */
export class SqliteChannelAnswerKeys implements ChannelAnswerKeys {
  constructor(private readonly db: DatabaseSync) {}

  add(key: NewAnswerKey, at: Date): void {
    write(
      this.db,
      "the approval's answer key",
      `INSERT OR IGNORE INTO channel_answer_keys (key_hash, channel, approval_id, action, owner_id,
         created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      key.keyHash,
      key.channel,
      key.approvalId,
      key.action,
      key.ownerId,
      at.toISOString(),
      key.expiresAt,
    );
  }

  use(
    keyHash: string,
    channel: ChannelName,
    senderId: string,
    at: Date,
  ): { approvalId: number; action: NewAnswerKey["action"] } | undefined {
    return transaction(this.db, () => {
      const key = selectOne(
        this.db,
        (row) => ({
          approvalId: Number(row.approval_id),
          action: row.action as NewAnswerKey["action"],
        }),
        `SELECT approval_id, action FROM channel_answer_keys
         WHERE key_hash = ? AND channel = ? AND owner_id = ? AND used_at IS NULL AND expires_at > ?`,
        keyHash,
        channel,
        senderId,
        at.toISOString(),
      );
      if (!key) return undefined;
      // Every answer to this approval dies with the first one used.
      write(
        this.db,
        "the approval's answer key",
        "UPDATE channel_answer_keys SET used_at = ? WHERE approval_id = ? AND used_at IS NULL",
        at.toISOString(),
        key.approvalId,
      );
      return key;
    }, "the approval's answer");
  }

  approvalOf(keyHash: string, channel: ChannelName, senderId: string): number | undefined {
    return selectOne(
      this.db,
      (row) => Number(row.approval_id),
      `SELECT approval_id FROM channel_answer_keys
       WHERE key_hash = ? AND channel = ? AND owner_id = ?`,
      keyHash,
      channel,
      senderId,
    );
  }
}

const healthColumns = columnsOf<ChannelHealthRecord>()(
  "channel state pid updated_at last_message_at last_sent_at last_error last_error_at",
);

/** Each channel's health in SQLite. */
export class SqliteChannelHealth implements ChannelHealth {
  constructor(private readonly db: DatabaseSync) {}

  report(channel: ChannelName, patch: ChannelHealthPatch, at: Date): void {
    const now = at.toISOString();
    write(
      this.db,
      "the channel's health",
      `INSERT INTO channel_health (channel, state, pid, updated_at, last_message_at, last_sent_at,
         last_error, last_error_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (channel) DO UPDATE SET
         state = coalesce(?, state), pid = coalesce(?, pid), updated_at = excluded.updated_at,
         last_message_at = coalesce(excluded.last_message_at, last_message_at),
         last_sent_at = coalesce(excluded.last_sent_at, last_sent_at),
         last_error = coalesce(excluded.last_error, last_error),
         last_error_at = coalesce(excluded.last_error_at, last_error_at)`,
      channel,
      patch.state ?? "connecting",
      patch.pid ?? null,
      now,
      patch.lastMessageAt ?? null,
      patch.lastSentAt ?? null,
      patch.lastError ?? null,
      patch.lastError ? now : null,
      patch.state ?? null,
      patch.pid ?? null,
    );
  }

  all(): ChannelHealthRecord[] {
    return selectAll(
      this.db,
      (row) => camelRecord<ChannelHealthRecord>(row, healthColumns),
      "SELECT * FROM channel_health ORDER BY channel",
    );
  }
}
