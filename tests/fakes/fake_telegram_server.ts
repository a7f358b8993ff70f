/**
 * A stand-in for the Telegram Bot API (https://core.telegram.org/bots/api) on 127.0.0.1, answering
 * with the published JSON shapes: `{ok: true, result}` or `{ok: false, error_code, description,
 * parameters}`. Methods: getMe, getUpdates (long poll; an offset confirms the updates before it),
 * sendMessage, editMessageText, answerCallbackQuery, getFile, and file downloads at
 * `/file/bot<token>/<file_path>`. Tests play the people: `userSays`, `userSendsDocument`,
 * `userPresses`; `sent` is what the bot sent. Radar's `api_root` points here.
 */

// deno-lint-ignore no-explicit-any
type Json = any;

/** A Telegram user as the API describes one. */
export interface FakeUser {
  id: number;
  first_name: string;
  username?: string;
}

/** A message the bot sent (or edited), as the stand-in recorded it. */
export interface BotMessage {
  message_id: number;
  chat_id: string;
  text: string;
  buttons: Array<{ text: string; callback_data: string }>;
  edited: boolean;
}

/** The bot's own user. */
const botUser = { id: 4242, is_bot: true, first_name: "Radar", username: "radar_test_bot" };

/** The stand-in server. */
export class FakeTelegramServer {
  readonly token = "4242:TEST-token-abcdefghijklmnopqrstuv";
  /** Every message the bot sent or edited, in order (an edit is recorded again, `edited`). */
  readonly sent: BotMessage[] = [];
  /** Callback queries answered: id → the text shown. */
  readonly answeredCallbacks = new Map<string, string>();
  /** Every method called, in order (with its parameters). */
  readonly calls: Array<{ method: string; params: Json }> = [];
  /** Failures to answer instead of the next calls of a method (a 429, a 502…). */
  readonly failNext = new Map<string, Array<{ status: number; body: Json }>>();
  readonly #updates: Json[] = [];
  readonly #files = new Map<string, { path: string; bytes: Uint8Array }>();
  readonly #waiters = new Set<() => void>();
  #nextUpdate = 1;
  #nextMessage = 100;
  #confirmed = 0;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** What Radar's `channels.telegram.api_root` is. */
  get apiRoot(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Updates the bot has not confirmed yet (by a later offset). */
  get unconfirmed(): number {
    return this.#updates.filter((update) => update.update_id >= this.#confirmed).length;
  }

  /** `user` writes `text` to the bot in their private chat; returns the update id. */
  userSays(user: FakeUser, text: string, extra: Json = {}): number {
    return this.#push({
      message: {
        message_id: this.#nextMessage++,
        from: { ...user, is_bot: false },
        chat: { id: user.id, type: "private", first_name: user.first_name },
        date: 1_800_000_000,
        text,
        ...extra,
      },
    });
  }

  /** `user` sends a file (a document) with an optional caption; returns the update id. */
  userSendsDocument(user: FakeUser, name: string, bytes: Uint8Array, caption?: string): number {
    const fileId = `file-${crypto.randomUUID()}`;
    // Telegram names stored files itself (documents/file_12.pdf), whatever the sender called them.
    const extension = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? "";
    this.#files.set(fileId, { path: `documents/file_${this.#files.size}${extension}`, bytes });
    return this.#push({
      message: {
        message_id: this.#nextMessage++,
        from: { ...user, is_bot: false },
        chat: { id: user.id, type: "private", first_name: user.first_name },
        date: 1_800_000_000,
        document: {
          file_id: fileId,
          file_unique_id: fileId.slice(0, 16),
          file_name: name,
          mime_type: "application/pdf",
          file_size: bytes.length,
        },
        ...(caption ? { caption } : {}),
      },
    });
  }

  /** `user` presses the button with `data` under the bot's message; returns the update id. */
  userPresses(user: FakeUser, message: BotMessage, data: string): number {
    return this.#push({
      callback_query: {
        id: `cb-${crypto.randomUUID()}`,
        from: { ...user, is_bot: false },
        message: {
          message_id: message.message_id,
          from: botUser,
          chat: { id: Number(message.chat_id), type: "private" },
          date: 1_800_000_000,
          text: message.text,
        },
        chat_instance: "1",
        data,
      },
    });
  }

  /** Resolves once the bot has sent a message matching `match` (polls the record). */
  async waitForSent(
    match: (message: BotMessage) => boolean,
    timeoutMs = 10_000,
  ): Promise<BotMessage> {
    const started = Date.now();
    for (;;) {
      const found = this.sent.find(match);
      if (found) return found;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `the bot sent no such message; it sent: ${JSON.stringify(this.sent.map((m) => m.text))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    for (const wake of this.#waiters) wake();
    await this.#server.shutdown();
  }

  #push(update: Json): number {
    const id = this.#nextUpdate++;
    this.#updates.push({ update_id: id, ...update });
    for (const wake of this.#waiters) wake();
    return id;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) {
      if (file[1] !== this.token) return new Response("Unauthorized", { status: 401 });
      const path = decodeURIComponent(file[2]);
      const found = [...this.#files.values()].find((entry) => entry.path === path);
      return found
        ? new Response(found.bytes as BodyInit)
        : new Response("Not Found", { status: 404 });
    }
    const call = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!call) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
    if (call[1] !== this.token) {
      return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
    }
    const method = call[2];
    const params = await parameters(request, url);
    this.calls.push({ method, params });
    const failure = this.failNext.get(method)?.shift();
    if (failure) return reply(failure.status, failure.body);
    switch (method) {
      case "getMe":
        return ok({ ...botUser, can_join_groups: false, can_read_all_group_messages: false });
      case "getUpdates":
        return ok(await this.#getUpdates(params));
      case "sendMessage":
        return this.#sendMessage(params);
      case "editMessageText":
        return this.#editMessageText(params);
      case "answerCallbackQuery":
        this.answeredCallbacks.set(String(params.callback_query_id), String(params.text ?? ""));
        return ok(true);
      case "getFile": {
        const entry = this.#files.get(String(params.file_id));
        if (!entry) return badRequest("Bad Request: invalid file_id");
        return ok({
          file_id: params.file_id,
          file_unique_id: String(params.file_id).slice(0, 16),
          file_size: entry.bytes.length,
          file_path: entry.path,
        });
      }
      default:
        return reply(404, {
          ok: false,
          error_code: 404,
          description: "Not Found: method not found",
        });
    }
  }

  async #getUpdates(params: Json): Promise<Json[]> {
    if (params.offset !== undefined) {
      this.#confirmed = Math.max(this.#confirmed, Number(params.offset));
    }
    const waiting = () => this.#updates.filter((update) => update.update_id >= this.#confirmed);
    const timeout = Math.min(Number(params.timeout ?? 0), 50);
    if (!waiting().length && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, timeout * 1000);
        this.#waiters.add(wake);
      });
    }
    return waiting().slice(0, Number(params.limit ?? 100));
  }

  #sendMessage(params: Json): Response {
    const text = String(params.text ?? "");
    if (!text) return badRequest("Bad Request: message text is empty");
    if (text.length > 4096) return badRequest("Bad Request: message is too long");
    const message: BotMessage = {
      message_id: this.#nextMessage++,
      chat_id: String(params.chat_id),
      text,
      buttons: buttonsOf(params.reply_markup),
      edited: false,
    };
    this.sent.push(message);
    return ok({
      message_id: message.message_id,
      from: botUser,
      chat: { id: Number(params.chat_id), type: "private" },
      date: 1_800_000_000,
      text,
    });
  }

  #editMessageText(params: Json): Response {
    const original = this.sent.find((message) =>
      message.message_id === Number(params.message_id) && message.chat_id === String(params.chat_id)
    );
    if (!original) return badRequest("Bad Request: message to edit not found");
    const text = String(params.text ?? "");
    if (text.length > 4096) return badRequest("Bad Request: message is too long");
    this.sent.push({ ...original, text, buttons: buttonsOf(params.reply_markup), edited: true });
    return ok({
      message_id: original.message_id,
      from: botUser,
      chat: { id: Number(params.chat_id), type: "private" },
      date: 1_800_000_000,
      edit_date: 1_800_000_001,
      text,
    });
  }
}

async function parameters(request: Request, url: URL): Promise<Json> {
  const params: Json = Object.fromEntries(url.searchParams);
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return { ...params, ...(await request.json()) };
  if (type.includes("form")) {
    const form = await request.formData();
    for (const [key, value] of form) {
      params[key] = typeof value === "string" && /^[[{]/.test(value) ? JSON.parse(value) : value;
    }
  }
  return params;
}

function buttonsOf(markup: Json): Array<{ text: string; callback_data: string }> {
  const parsed = typeof markup === "string" ? JSON.parse(markup) : markup;
  return (parsed?.inline_keyboard ?? []).flat();
}

function ok(result: Json): Response {
  return reply(200, { ok: true, result });
}

function badRequest(description: string): Response {
  return reply(400, { ok: false, error_code: 400, description });
}

function reply(status: number, body: Json): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}
