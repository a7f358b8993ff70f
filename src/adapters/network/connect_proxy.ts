/**
 * A one-target HTTP CONNECT proxy on 127.0.0.1, living for one request. Deno's fetch has no way to
 * say "connect to this address" for https, but it tunnels https through a proxy with CONNECT and
 * still verifies the certificate against the URL's host name. This proxy ignores DNS: it connects
 * only to the address the network guard checked, only for the expected host:port, and only for a
 * client that knows its random password.
 */

/** The proxy while it runs. */
export interface PinnedProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  username: string;
  password: string;
  /** Stops listening and closes every tunnel. */
  close(): void;
}

const maxHeadBytes = 8192;

/** Starts the proxy for `target` (`host:port` as the client will ask for it) → `address:port`. */
export function startPinnedProxy(
  target: { host: string; port: number },
  address: string,
): PinnedProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const password = crypto.randomUUID();
  const expectedAuth = `Basic ${btoa(`radar:${password}`)}`;
  const open = new Set<Deno.Conn>();
  const serve = async () => {
    for await (const client of listener) {
      open.add(client);
      tunnel(client).catch(() => {}).finally(() => {
        closeQuietly(client);
        open.delete(client);
      });
    }
  };
  const tunnel = async (client: Deno.Conn) => {
    const { head, rest } = await readHead(client);
    const lines = head.split("\r\n");
    const [method, authority] = lines[0].split(" ");
    const auth = lines.find((line) => /^proxy-authorization:/i.test(line))
      ?.replace(/^[^:]*:\s*/, "");
    const wanted = `${target.host}:${target.port}`.toLowerCase();
    if (method !== "CONNECT" || auth !== expectedAuth || authority?.toLowerCase() !== wanted) {
      await client.write(new TextEncoder().encode("HTTP/1.1 403 Forbidden\r\n\r\n"));
      return;
    }
    const upstream = await Deno.connect({ hostname: address, port: target.port });
    open.add(upstream);
    try {
      await tunnelThrough(client, upstream, rest);
    } finally {
      closeQuietly(upstream);
      open.delete(upstream);
    }
  };
  serve().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    username: "radar",
    password,
    close() {
      closeQuietly(listener);
      for (const connection of open) closeQuietly(connection);
      open.clear();
    },
  };
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
