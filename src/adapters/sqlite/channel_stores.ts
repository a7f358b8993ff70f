/** Every chat channel store over one open database. */
import type { DatabaseSync } from "node:sqlite";
import type { ChannelStores } from "../../core/channel_stores.ts";
import { SqliteChannelInbox } from "./channel_inbox_store.ts";
import { SqliteChannelOutbox } from "./channel_outbox_store.ts";
import {
  SqliteChannelAnswerKeys,
  SqliteChannelHealth,
  SqliteChannelPeople,
} from "./channel_people_store.ts";

/** The channel stores (received, to send, people, approval answers, health). */
export function sqliteChannelStores(db: DatabaseSync): ChannelStores {
  return {
    inbox: new SqliteChannelInbox(db),
    outbox: new SqliteChannelOutbox(db),
    people: new SqliteChannelPeople(db),
    answers: new SqliteChannelAnswerKeys(db),
    health: new SqliteChannelHealth(db),
  };
}
