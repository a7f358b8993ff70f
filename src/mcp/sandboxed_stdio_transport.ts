/**
 * An MCP stdio transport over a process Radar starts itself (inside the exec sandbox): a cleared
 * environment, stdout read as newline-delimited JSON-RPC with a size cap per message (a larger
 * one, or a flood of garbage lines, kills the server), stderr kept only as a short tail.
 * Written instead of the SDK's StdioClientTransport, which inherits HOME/PATH/USER and buffers
 * stdout without a bound.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { concatBytes } from "../core/bytes.ts";

/** How to start the server process. */
export interface ProcessLaunch {
  /** The full argv (the sandbox program first). */
  argv: string[];
  /** The whole environment of the process (nothing else is inherited). */
  env: Record<string, string>;
  cwd: string;
}

/** How long an exited server's stderr may take to reach its end. */
const stderrDrainMs = 500;

/** Garbage lines tolerated before the server is killed. */
const maxBadLines = 50;
const stderrTailBytes = 2000;

/** A stdio transport with a bounded read side and a hard kill on close. */
export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: Deno.ChildProcess;
  private writer?: WritableStreamDefaultWriter<Uint8Array>;
  private closed = false;
  private stderrTail = "";
  private status?: Deno.CommandStatus;
  private killed = false;

  constructor(private readonly launch: ProcessLaunch, private readonly maxMessageBytes: number) {}

  /** Starts the process and its readers. */
  start(): Promise<void> {
    const [program, ...args] = this.launch.argv;
    this.child = new Deno.Command(program, {
      args,
      env: this.launch.env,
      clearEnv: true,
      cwd: this.launch.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.readStdout(this.child.stdout).catch((error) => this.fail(error));
    const stderrRead = this.readStderr(this.child.stderr).catch(() => {});
    this.child.status.then(async (status) => {
      if (!this.killed) this.status = status;
      // Its last words first, so whoever hears of the close can say what it wrote (bounded:
      // a child of the server may hold stderr open).
      await settledWithin(stderrRead, stderrDrainMs);
      this.finish();
    }, () => this.finish());
    return Promise.resolve();
  }

  /** Writes one message as a line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || !this.writer) throw new Error("the MCP server is not running");
    await this.writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Kills the process (and with it the sandbox) at once. */
  close(): Promise<void> {
    this.kill();
    this.finish();
    return Promise.resolve();
  }

  /** The last lines the server wrote to stderr (for a one-line error). */
  stderr(): string {
    return this.stderrTail;
  }

  /** How the process ended (undefined while it runs or after Radar killed it). */
  exitStatus(): Deno.CommandStatus | undefined {
    return this.status;
  }

  private kill(): void {
    this.killed = true;
    try {
      this.child?.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    this.kill();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.writer?.close().catch(() => {});
    this.onclose?.();
  }

  private async readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let badLines = 0;
    for await (const chunk of stream) {
      let start = 0;
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, start)) {
        pending.push(chunk.subarray(start, index));
        pendingBytes += index - start;
        start = index + 1;
        if (pendingBytes > this.maxMessageBytes) return this.tooLarge();
        const line = decoder.decode(concatBytes(pending)).trim();
        pending = [];
        pendingBytes = 0;
        if (!line) continue;
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch {
          if (++badLines > maxBadLines) {
            return this.fail(
              new Error(`wrote more than ${maxBadLines} lines that are not JSON-RPC`),
            );
          }
          continue;
        }
        if (this.closed) return;
        this.onmessage?.(message);
      }
      if (start < chunk.length) {
        pending.push(chunk.slice(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > this.maxMessageBytes) return this.tooLarge();
      }
    }
  }

  private tooLarge(): void {
    this.fail(new Error(`sent a message larger than ${this.maxMessageBytes} bytes`));
  }

  private async readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      this.stderrTail = (this.stderrTail + decoder.decode(chunk.slice(-stderrTailBytes)))
        .slice(-stderrTailBytes);
    }
  }
}

/** Waits for `promise`, at most `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise,
    new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}
