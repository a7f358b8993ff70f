/**
 * A one-target HTTP CONNECT proxy on 127.0.0.1, living for one request. Deno's fetch has no way to
 * say "connect to this address" for https, but it tunnels https through a proxy with CONNECT and
 * still verifies the certificate against the URL's host name. This proxy ignores DNS: it connects
 * only to the address the network guard checked, only for the expected host:port, and only for a
 * client that knows its random password. `startLocalProxy` is the listener it shares with the
 * browser's guarded proxy (guarded_proxy.ts).
 */

/** A proxy on 127.0.0.1 while it runs. */
export interface LocalProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  username: string;
  password: string;
  /** Stops listening and closes every connection. */
  close(): void;
}

/** What a proxy's request handler gets besides the client connection. */
export interface ProxyRequest {
  /** The request head (empty: the client closed first, or sent too long a head). */
  head: string;
  /** The head's lines (request line first). */
  lines: string[];
  method: string;
  /** The request target: `host:port` for CONNECT, an absolute URL for a plain request. */
  target?: string;
  /** Bytes the client sent after its head, already read. */
  rest: Uint8Array;
  /** True when the client sent the proxy's password (Proxy-Authorization). */
  authorized: boolean;
  /** Registers an upstream connection so that `close` ends it too (closed at once after close). */
  track(connection: Deno.Conn): Deno.Conn;
  /** Closes a tracked connection. */
  release(connection: Deno.Conn): void;
}

const maxHeadBytes = 8192;

/**
 * Listens on a free 127.0.0.1 port behind a random password; each client's request head (at most
 * `maxHead` bytes) goes to `handle`, and the client is closed after.
 */
export function startLocalProxy(
  handle: (client: Deno.Conn, request: ProxyRequest) => Promise<void>,
  maxHead = maxHeadBytes,
): LocalProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const password = crypto.randomUUID();
  const expectedAuth = `Basic ${btoa(`radar:${password}`)}`;
  const open = new Set<Deno.Conn>();
  let closed = false;
  const track = (connection: Deno.Conn) => {
    if (closed) closeQuietly(connection);
    else open.add(connection);
    return connection;
  };
  const release = (connection: Deno.Conn) => {
    closeQuietly(connection);
    open.delete(connection);
  };
  const answer = async (client: Deno.Conn) => {
    const { head, rest } = await readHead(client, maxHead);
    const lines = head.split("\r\n");
    const [method, target] = lines[0].split(" ");
    const auth = lines.find((line) => /^proxy-authorization:/i.test(line))
      ?.replace(/^[^:]*:\s*/, "");
    const authorized = auth === expectedAuth;
    await handle(client, { head, lines, method, target, rest, authorized, track, release });
  };
  const serve = async () => {
    for await (const client of listener) {
      track(client);
      answer(client).catch(() => {}).finally(() => release(client));
    }
  };
  serve().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    username: "radar",
    password,
    close() {
      closed = true;
      closeQuietly(listener);
      for (const connection of open) closeQuietly(connection);
      open.clear();
    },
  };
}

/** Starts the proxy for `target` (`host:port` as the client will ask for it) → `address:port`. */
export function startPinnedProxy(
  target: { host: string; port: number },
  address: string,
): LocalProxy {
  const wanted = `${target.host}:${target.port}`.toLowerCase();
  return startLocalProxy(async (client, request) => {
    const { method, authorized, track, release } = request;
    if (method !== "CONNECT" || !authorized || request.target?.toLowerCase() !== wanted) {
      await client.write(new TextEncoder().encode("HTTP/1.1 403 Forbidden\r\n\r\n"));
      return;
    }
    const upstream = track(await Deno.connect({ hostname: address, port: target.port }));
    try {
      await tunnelThrough(client, upstream, request.rest);
    } finally {
      release(upstream);
    }
  });
}

/**
 * Answers a CONNECT and pipes both ways until either side closes (`rest`: bytes the client sent
 * after its request head, already read).
 */
export async function tunnelThrough(
  client: Deno.Conn,
  upstream: Deno.Conn,
  rest: Uint8Array,
): Promise<void> {
  await client.write(new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
  if (rest.byteLength) await upstream.write(rest);
  await Promise.all([
    client.readable.pipeTo(upstream.writable).catch(() => {}),
    upstream.readable.pipeTo(client.writable).catch(() => {}),
  ]);
}

/**
 * Reads an HTTP head (up to the blank line) of at most `maxBytes`; what follows it is returned as
 * `rest`. An empty head: the peer closed first, or the head was too long.
 */
export async function readHead(
  client: Deno.Conn,
  maxBytes = maxHeadBytes,
): Promise<{ head: string; rest: Uint8Array }> {
  const buffer = new Uint8Array(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const read = await client.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
    const text = new TextDecoder("latin1").decode(buffer.subarray(0, filled));
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) return { head: text.slice(0, end), rest: buffer.slice(end + 4, filled) };
  }
  return { head: "", rest: new Uint8Array() };
}

/** Closes a connection or listener, ignoring one that is closed already. */
export function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch { /* already closed */ }
}
