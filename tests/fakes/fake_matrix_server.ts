/**
 * A stand-in for a Matrix homeserver's Client-Server API (https://spec.matrix.org/v1.11/client-server-api/)
 * on 127.0.0.1, answering with the spec's JSON shapes: password login, whoami, logout, /sync with
 * a `since` token (a long poll), sending events with idempotent transaction ids, redactions, joining rooms
 * one is invited to, authenticated media downloads, and rate limits (429 `M_LIMIT_EXCEEDED` with
 * `retry_after_ms`). No homeserver is installable from Debian or npm here; this follows the spec,
 * not any client library. Tests play the people: `userSays`, `userReacts`, `userRedacts`,
 * `userSendsFile`, `invite`.
 */

// deno-lint-ignore no-explicit-any
type Json = any;

/** One event as the server stored it. */
export interface StoredEvent {
  position: number;
  roomId: string;
  event: Json;
}

/** The stand-in homeserver. */
export class FakeMatrixServer {
  readonly serverName = "example.test";
  readonly botUserId = "@radar:example.test";
  readonly botPassword = "bot-password-1234";
  readonly accessToken = "syt_radar_token_abcdefghijklmnop";
  /** Every event, in order. */
  readonly events: StoredEvent[] = [];
  /** How many of the next send requests answer 429, and the wait they ask for. */
  rateLimit = { remaining: 0, retryAfterMs: 0 };
  /** Requests received (method and path), in order. */
  readonly requests: Array<{ method: string; path: string }> = [];
  readonly #joined = new Set<string>();
  readonly #invites = new Map<string, string>();
  readonly #transactions = new Map<string, string>();
  readonly #media = new Map<string, Uint8Array>();
  readonly #waiters = new Set<() => void>();
  #position = 0;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** What Radar's `channels.matrix.homeserver` is. */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** A room the bot is in already. */
  joinedRoom(roomId: string): string {
    this.#joined.add(roomId);
    return roomId;
  }

  /** `user` invites the bot to `roomId`. */
  invite(user: string, roomId: string): void {
    this.#invites.set(roomId, user);
    this.#wake();
  }

  /** Whether the bot joined `roomId`. */
  isJoined(roomId: string): boolean {
    return this.#joined.has(roomId);
  }

  /** `user` writes `text` in `roomId` (optionally as a reply to `replyTo`); returns the event id. */
  userSays(user: string, roomId: string, text: string, replyTo?: string): string {
    return this.#add(roomId, {
      type: "m.room.message",
      sender: user,
      content: {
        msgtype: "m.text",
        body: text,
        ...(replyTo ? { "m.relates_to": { "m.in_reply_to": { event_id: replyTo } } } : {}),
      },
    });
  }

  /** `user` reacts to `eventId` with `key`; returns the reaction's event id. */
  userReacts(user: string, roomId: string, eventId: string, key: string): string {
    return this.#add(roomId, {
      type: "m.reaction",
      sender: user,
      content: { "m.relates_to": { rel_type: "m.annotation", event_id: eventId, key } },
    });
  }

  /** `user` redacts `eventId` (room version 11: `redacts` in the content and at the top). */
  userRedacts(user: string, roomId: string, eventId: string): string {
    return this.#add(roomId, {
      type: "m.room.redaction",
      sender: user,
      redacts: eventId,
      content: { redacts: eventId },
    });
  }

  /** `user` uploads and sends a file; returns the event id. */
  userSendsFile(user: string, roomId: string, name: string, bytes: Uint8Array): string {
    const mediaId = crypto.randomUUID().replaceAll("-", "");
    this.#media.set(mediaId, bytes);
    return this.#add(roomId, {
      type: "m.room.message",
      sender: user,
      content: {
        msgtype: "m.file",
        body: name,
        filename: name,
        url: `mxc://${this.serverName}/${mediaId}`,
        info: { mimetype: "application/pdf", size: bytes.length },
      },
    });
  }

  /** Events the bot sent, in order. */
  get botEvents(): StoredEvent[] {
    return this.events.filter((stored) => stored.event.sender === this.botUserId);
  }

  /** Resolves once the bot sent a message event matching `match`. */
  async waitForBot(match: (event: Json) => boolean, timeoutMs = 10_000): Promise<StoredEvent> {
    const started = Date.now();
    for (;;) {
      const found = this.botEvents.find((stored) => match(stored.event));
      if (found) return found;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `the bot sent no such event; it sent: ${
            JSON.stringify(this.botEvents.map((stored) => stored.event.content?.body))
          }`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.#wake();
    await this.#server.shutdown();
  }

  #add(roomId: string, event: Json): string {
    const eventId = `$${crypto.randomUUID().replaceAll("-", "")}`;
    this.events.push({
      position: ++this.#position,
      roomId,
      event: { ...event, event_id: eventId, origin_server_ts: 1_800_000_000_000 + this.#position },
    });
    this.#wake();
    return eventId;
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    this.requests.push({ method: request.method, path });
    if (path === "/_matrix/client/versions") return json(200, { versions: ["v1.11"] });
    if (path === "/_matrix/client/v3/login" && request.method === "POST") {
      return this.#login(await request.json());
    }
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ??
      url.searchParams.get("access_token");
    if (!token) return json(401, { errcode: "M_MISSING_TOKEN", error: "Missing access token" });
    if (token !== this.accessToken) {
      return json(401, { errcode: "M_UNKNOWN_TOKEN", error: "Unrecognised access token" });
    }
    if (path === "/_matrix/client/v3/account/whoami" && request.method === "GET") {
      return json(200, { user_id: this.botUserId, device_id: "RADAR", is_guest: false });
    }
    // A logout ends that session; the stand-in's one token stays valid for the others.
    if (path === "/_matrix/client/v3/logout" && request.method === "POST") return json(200, {});
    if (path === "/_matrix/client/v3/sync" && request.method === "GET") {
      return json(200, await this.#sync(url.searchParams));
    }
    const join = /^\/_matrix\/client\/v3\/join\/([^/]+)$/.exec(path);
    if (join && request.method === "POST") {
      const roomId = decodeURIComponent(join[1]);
      if (!this.#invites.has(roomId) && !this.#joined.has(roomId)) {
        return json(403, { errcode: "M_FORBIDDEN", error: "You are not invited to this room." });
      }
      this.#invites.delete(roomId);
      this.#joined.add(roomId);
      return json(200, { room_id: roomId });
    }
    const send = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/(send|redact)\/([^/]+)\/([^/]+)$/.exec(
      path,
    );
    if (send && request.method === "PUT") {
      return this.#send(
        decodeURIComponent(send[1]),
        send[2],
        decodeURIComponent(send[3]),
        decodeURIComponent(send[4]),
        await request.json(),
      );
    }
    const media = /^\/_matrix\/client\/v1\/media\/download\/([^/]+)\/([^/]+)$/.exec(path);
    if (media && request.method === "GET") {
      const bytes = this.#media.get(media[2]);
      return bytes
        ? new Response(bytes as BodyInit, { headers: { "content-type": "application/pdf" } })
        : json(404, { errcode: "M_NOT_FOUND", error: "Not found" });
    }
    return json(404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" });
  }

  #login(body: Json): Response {
    const user = body?.identifier?.user ?? body?.user;
    if (body?.type !== "m.login.password") {
      return json(400, { errcode: "M_UNKNOWN", error: "Unknown login type" });
    }
    if (user !== this.botUserId || body.password !== this.botPassword) {
      return json(403, { errcode: "M_FORBIDDEN", error: "Invalid username or password" });
    }
    return json(200, {
      user_id: this.botUserId,
      access_token: this.accessToken,
      device_id: body.device_id ?? "NEWDEVICE",
      home_server: this.serverName,
    });
  }

  async #sync(params: URLSearchParams): Promise<Json> {
    const since = params.get("since");
    const from = since ? Number(since.replace(/^s/, "")) : 0;
    if (since && !/^s\d+$/.test(since)) return { next_batch: since, rooms: {} };
    const newer = () =>
      this.events.filter((stored) => stored.position > from && this.#joined.has(stored.roomId));
    const timeout = Math.min(Number(params.get("timeout") ?? 0), 60_000);
    if (since && !newer().length && !this.#invites.size && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, timeout);
        this.#waiters.add(wake);
      });
    }
    const join: Json = {};
    for (const stored of newer()) {
      join[stored.roomId] ??= {
        timeline: { events: [], limited: false, prev_batch: since ?? "s0" },
      };
      join[stored.roomId].timeline.events.push(stored.event);
    }
    const invite: Json = {};
    for (const [roomId, inviter] of this.#invites) {
      invite[roomId] = {
        invite_state: {
          events: [{
            type: "m.room.member",
            sender: inviter,
            state_key: this.botUserId,
            content: { membership: "invite" },
          }],
        },
      };
    }
    return { next_batch: `s${this.#position}`, rooms: { join, invite, leave: {} } };
  }

  #send(
    roomId: string,
    kind: string,
    eventTypeOrId: string,
    txnId: string,
    content: Json,
  ): Response {
    if (this.rateLimit.remaining > 0) {
      this.rateLimit.remaining--;
      return json(429, {
        errcode: "M_LIMIT_EXCEEDED",
        error: "Too many requests",
        retry_after_ms: this.rateLimit.retryAfterMs,
      });
    }
    if (!this.#joined.has(roomId)) {
      return json(403, { errcode: "M_FORBIDDEN", error: "You are not in this room." });
    }
    const known = this.#transactions.get(txnId);
    if (known) return json(200, { event_id: known });
    const eventId = kind === "redact"
      ? this.#add(roomId, {
        type: "m.room.redaction",
        sender: this.botUserId,
        redacts: eventTypeOrId,
        content: { redacts: eventTypeOrId, ...content },
      })
      : this.#add(roomId, { type: eventTypeOrId, sender: this.botUserId, content });
    this.#transactions.set(txnId, eventId);
    return json(200, { event_id: eventId });
  }
}

function json(status: number, body: Json): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}
