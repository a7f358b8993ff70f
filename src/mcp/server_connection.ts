/**
 * One MCP server's connection: started on first use, every request under a deadline; a server
 * that times out, crashes or breaks the protocol is killed and started again on the next call,
 * so Radar keeps serving.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { coalescedRun } from "../core/coalesced_run.ts";
import { radarVersion } from "../version.ts";

/**
 * Makes a fresh transport for each start. The MCP SDK is imported at the first start, so a
 * process that calls no MCP tool never loads it (start-up time, idle memory).
 */
type TransportFactory = () => Transport | Promise<Transport>;

/** A server's connection settings. */
interface ConnectionOptions {
  name: string;
  open: TransportFactory;
  timeoutMs: number;
  /**
   * A server idle this long is stopped (started again on the next call), so a long-lived server
   * does not keep seeing home entries created after its sandbox was built. 0: never.
   */
  idleMs?: number;
  /**
   * Called with the server's tool list at every start (before the first call runs) and again
   * whenever it says the list changed (notifications/tools/list_changed). Absent: not listed.
   */
  onToolsListed?: (tools: McpTool[]) => void;
  /**
   * Says what happened when the server failed to start or died (its stderr, its exit, what the
   * sandbox hid, its address), given the SDK's error and the transport. Absent: the error as is.
   */
  explain?: (error: Error, transport: Transport) => Error;
}

/** A started client, its transport and whether it is still usable. */
interface Session {
  client: Client;
  transport: Transport;
}

/** One server, restarted as needed. */
export class McpServerConnection {
  private session?: Promise<Session>;
  private transport?: Transport;
  private idleTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly options: ConnectionOptions) {}

  /** Starts the server if it is not running (its tools are listed and compared first). */
  async ready(): Promise<void> {
    await this.use(() => Promise.resolve());
  }

  /** The server's tools (every page, under one deadline). */
  async listTools(): Promise<McpTool[]> {
    return await this.use(listAllTools);
  }

  /** Calls one tool; a late or dead server is killed (and restarted by the next call). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    return await this.use(async (client, timeout) =>
      await client.callTool({ name, arguments: args }, undefined, {
        timeout,
        signal,
      }) as CallToolResult
    );
  }

  private stopWhenIdle(): void {
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs <= 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), idleMs);
    Deno.unrefTimer(this.idleTimer as unknown as number);
  }

  /** Stops the server. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const session = this.session;
    this.session = undefined;
    if (session) await session.then((started) => started.transport.close(), () => {});
  }

  private async use<T>(work: (client: Client, timeout: number) => Promise<T>): Promise<T> {
    const session = this.session ??= this.start();
    let started: Session;
    try {
      started = await session;
    } catch (error) {
      if (this.session === session) this.session = undefined;
      throw error;
    }
    clearTimeout(this.idleTimer);
    try {
      const result = await work(started.client, this.options.timeoutMs);
      this.stopWhenIdle();
      return result;
    } catch (error) {
      if (await answered(error)) throw error; // the server answered with an error: it is alive
      // A timeout, a dead or misbehaving server: kill it; the next call starts afresh.
      if (this.session === session) this.session = undefined;
      await started.transport.close().catch(() => {});
      throw this.explained(error, started.transport);
    }
  }

  /** The error in words the user can act on (see `ConnectionOptions.explain`). */
  private explained(error: unknown, transport: Transport): Error {
    const plain = error instanceof Error ? error : new Error(String(error));
    return this.options.explain ? this.options.explain(plain, transport) : plain;
  }

  private async start(): Promise<Session> {
    const transport = await this.options.open();
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { ToolListChangedNotificationSchema } = await import(
      "@modelcontextprotocol/sdk/types.js"
    );
    const client = new Client({ name: "radar", version: radarVersion }, { capabilities: {} });
    const onToolsListed = this.options.onToolsListed;
    if (onToolsListed) {
      // One listing at a time; notifications that come meanwhile make one more (a server that
      // floods them gets no flood of listings, comparisons and warnings).
      // On this session's client, not through a call: a notification neither restarts a stopped
      // server nor resets the idle timer (a chatty server still stops when idle).
      const relist = coalescedRun(() =>
        listAllTools(client, this.options.timeoutMs).then(onToolsListed, () => {})
      );
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        // Not awaited here: the listing is a request of its own on this connection.
        relist();
        return Promise.resolve();
      });
    }
    this.transport = transport;
    // A crashed server: the next call starts a new one. (Set again after connect, which wraps it.)
    const forget = () => {
      if (this.transport === transport) this.session = undefined;
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: this.options.timeoutMs });
          // Checked before any call: a server may have changed since it was approved.
          if (onToolsListed) onToolsListed(await listAllTools(client, this.options.timeoutMs));
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not start within ${this.options.timeoutMs} ms`)),
            this.options.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      await transport.close().catch(() => {});
      throw this.explained(error, transport);
    } finally {
      clearTimeout(timer);
    }
    const wrapped = transport.onclose;
    transport.onclose = () => {
      forget();
      wrapped?.();
    };
    return { client, transport };
  }
}

async function listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor && tools.length < 1000);
  return tools;
}

/** True for an error the server sent as its answer (not a timeout or a lost connection). */
async function answered(error: unknown): Promise<boolean> {
  const { ErrorCode, McpError } = await import("@modelcontextprotocol/sdk/types.js");
  if (!(error instanceof McpError)) return false;
  const code = (error as { code?: number }).code;
  return code !== ErrorCode.RequestTimeout && code !== ErrorCode.ConnectionClosed;
}
