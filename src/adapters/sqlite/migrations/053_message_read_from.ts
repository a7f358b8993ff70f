/**
 * Schema 53: an assistant message keeps what its run had read (`messages.read_from`, JSON
 * `{untrusted, private}` sources), so a later run replaying the model's words counts those reads
 * too, even after the reads left the replayed window. Assistant messages from before this version
 * never recorded it: they count as words written after reading private data from outside.
 */
import type { Migration } from "../database.ts";

/** What earlier assistant messages are taken to have read (nobody recorded it). */
export const unrecordedReadFrom = JSON.stringify({
  untrusted: ["words stored before Radar kept what runs read"],
  private: ["words stored before Radar kept what runs read"],
});

/** `messages.read_from`; earlier assistant messages as having read private data. */
export const messageReadFromMigration: Migration = {
  version: 53,
  name: "053_message_read_from",
  sql: `
ALTER TABLE messages ADD COLUMN read_from TEXT;
UPDATE messages SET read_from = '${unrecordedReadFrom}' WHERE role = 'assistant';
`,
};
