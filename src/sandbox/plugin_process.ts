/**
 * The parent's handle on one plugin host process: spawns it on first use, sends the plugin's code,
 * relays calls, and enforces what the child cannot: a per-call deadline ending in SIGKILL (the next
 * call respawns), a cap on every frame from the child, a cleared environment, an empty scratch
 * working directory, and an idle stop. Every failure becomes a result; nothing here throws at the
 * caller.
 */
import { type ChildMessage, decodeChildLine, encodeParentLine } from "./protocol.ts";
import { textForTerminal } from "../core/terminal_text.ts";
import { lookup as dnsLookup } from "node:dns/promises";
import type { PluginGrant } from "./permissions.ts";
import { hostCommand, hostEnvironment } from "./host_command.ts";
import { checkGrantedNames, deniedAddresses, type HostLookup } from "./network_policy.ts";
import { findPrlimit } from "../adapters/os/process_limits.ts";
import { removeQuietly } from "../adapters/os/quiet_fs.ts";

/** The plugin code a host runs: file texts the parent read and checked. */
export interface PluginCode {
  name: string;
  files: Record<string, string>;
  entry: string;
  functions: string[];
}

/** Limits and environment of a plugin host. */
export interface PluginProcessOptions {
  code: PluginCode;
  grant: PluginGrant;
  callTimeoutMs: number;
  memoryMb: number;
  idleMs: number;
  maxResultChars: number;
  env: Record<string, string | undefined>;
  /** Defaults: the running Deno / binary, `prlimit` on Linux when present. */
  standalone?: boolean;
  execPath?: string;
  prlimitPath?: string;
  /** Resolves granted host names before the host starts (default: the system resolver, 2 s). */
  lookup?: HostLookup;
  /** The tag of the Radar that runs it (`ownerTag(dataDir)`), so `radar status` finds its own. */
  owner?: string;
}

/** The outcome of one plugin call. */
export interface PluginCallResult {
  outcome: "ok" | "error" | "timeout";
  text: string;
}

interface Pending {
  resolve(result: PluginCallResult): void;
  timer: ReturnType<typeof setTimeout>;
}

const maxStderrChars = 4000;
const lookupTimeoutMs = 2000;

/** The system resolver (getaddrinfo: hosts file, DNS, mDNS), giving up after 2 s. */
export function systemLookup(host: string): Promise<string[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string[]>((_, reject) => {
    timer = setTimeout(() => reject(new Error("DNS lookup timed out")), lookupTimeoutMs);
  });
  const answer = dnsLookup(host, { all: true }).then((entries) =>
    entries.map((entry) => entry.address)
  );
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

/** One plugin's host process, started lazily and restarted after a crash or a timeout. */
export class PluginProcess {
  #options: PluginProcessOptions;
  #child?: Deno.ChildProcess;
  #ready?: Promise<string | undefined>;
  #pending = new Map<string, Pending>();
  #stdin?: WritableStreamDefaultWriter<Uint8Array>;
  #stderr = "";
  #idleTimer?: ReturnType<typeof setTimeout>;
  #encoder = new TextEncoder();
  #closed: Promise<unknown> = Promise.resolve();
  /** How many host processes were started (tests and status read this). */
  starts = 0;

  constructor(options: PluginProcessOptions) {
    this.#options = options;
  }

  /** The running host's process id, if any. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Calls one exported function; resolves with the result, an error or a timeout. */
  async call(name: string, args: Record<string, unknown>): Promise<PluginCallResult> {
    this.#clearIdle();
    const loadError = await this.#ensureStarted();
    if (loadError !== undefined) {
      this.#armIdle();
      return { outcome: "error", text: loadError };
    }
    const id = crypto.randomUUID();
    const result = await new Promise<PluginCallResult>((resolve) => {
      const timer = setTimeout(() => {
        this.#kill(`timed out after ${this.#options.callTimeoutMs} ms`, "timeout");
      }, this.#options.callTimeoutMs);
      this.#pending.set(id, { resolve, timer });
      this.#write({ type: "call", id, function: name, args });
    });
    this.#armIdle();
    return result;
  }

  /** Stops the host process (idempotent). */
  async stop(): Promise<void> {
    this.#clearIdle();
    const child = this.#child;
    if (!child) return;
    this.#kill("stopped", "error");
    await child.status.catch(() => undefined);
    await this.#closed;
  }

  #ensureStarted(): Promise<string | undefined> {
    if (!this.#ready) this.#ready = this.#start();
    return this.#ready;
  }

  async #start(): Promise<string | undefined> {
    const options = this.#options;
    let denyNet: string[] = [];
    if (options.grant.net.length) {
      const check = await checkGrantedNames(options.grant.net, options.lookup ?? systemLookup);
      if (check.problems.length) {
        this.#ready = undefined;
        return `cannot start ${options.code.name}: ${check.problems.join("; ")}`;
      }
      denyNet = deniedAddresses(check.exempt);
    }
    const { command, args } = hostCommand({
      grant: options.grant,
      memoryMb: options.memoryMb,
      standalone: options.standalone ?? Deno.build.standalone,
      execPath: options.execPath ?? Deno.execPath(),
      prlimitPath: options.prlimitPath ?? findPrlimit(),
      denyNet,
      pluginName: options.code.name,
      owner: options.owner,
    });
    const scratch = Deno.makeTempDirSync({ prefix: "radar-plugin-" });
    this.#stderr = "";
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        cwd: scratch,
        clearEnv: true,
        env: hostEnvironment(options.grant, options.env, options.memoryMb),
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      this.#ready = undefined;
      removeQuietly(scratch);
      return `cannot start the plugin host: ${(error as Error).message}`;
    }
    this.starts++;
    this.#child = child;
    this.#stdin = child.stdin.getWriter();
    let settleReady: (error: string | undefined) => void = () => {};
    const ready = new Promise<string | undefined>((resolve) => (settleReady = resolve));
    const loadTimer = setTimeout(
      () => this.#kill(`did not load within ${options.callTimeoutMs} ms`, "timeout"),
      options.callTimeoutMs,
    );
    const frames = this.#readFrames(child, (message) => {
      if (message.type === "ready") {
        clearTimeout(loadTimer);
        settleReady(undefined);
      } else if (message.type === "load_error") {
        clearTimeout(loadTimer);
        settleReady(`${options.code.name} failed to load: ${textForTerminal(message.error)}`);
        this.#kill("failed to load", "error");
      } else if (message.type === "result") {
        const pending = this.#pending.get(message.id);
        if (!pending) return;
        this.#pending.delete(message.id);
        clearTimeout(pending.timer);
        pending.resolve(
          message.ok
            ? { outcome: "ok", text: textForTerminal(message.value) }
            : { outcome: "error", text: `${options.code.name}: ${textForTerminal(message.error)}` },
        );
      }
    });
    const stderr = this.#readStderr(child);
    const exited = child.status.then((status) => {
      clearTimeout(loadTimer);
      const reason = this.#exitReason(status);
      settleReady(`${options.code.name} failed to load: ${reason}`);
      removeQuietly(scratch);
      if (this.#child !== child) return;
      this.#failPending(`${options.code.name}: ${reason}`, "error");
      this.#detach();
    });
    this.#closed = Promise.all([frames, stderr, exited]);
    this.#write({
      type: "load",
      files: options.code.files,
      entry: options.code.entry,
      functions: options.code.functions,
      grant: options.grant,
    });
    return await ready;
  }

  #exitReason(status: Deno.CommandStatus): string {
    const lastLine = textForTerminal(this.#stderr).trim().split("\n").filter((line) =>
      !line.startsWith("[plugin]")
    ).at(-1);
    const how = status.signal ? `killed by ${status.signal}` : `exit code ${status.code}`;
    return `the plugin host ended (${how})${lastLine ? `: ${lastLine.slice(0, 200)}` : ""}`;
  }

  #write(message: Parameters<typeof encodeParentLine>[0]): void {
    const writer = this.#stdin;
    if (!writer) return;
    writer.write(this.#encoder.encode(encodeParentLine(message))).catch(() => undefined);
  }

  async #readFrames(child: Deno.ChildProcess, onMessage: (message: ChildMessage) => void) {
    const maxLine = this.#options.maxResultChars * 2 + 8192;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of child.stdout) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf("\n")) >= 0) {
          const message = decodeChildLine(buffer.slice(0, newline), maxLine);
          buffer = buffer.slice(newline + 1);
          if (message) onMessage(message);
        }
        if (buffer.length > maxLine) {
          this.#kill(`sent more than ${maxLine} characters in one message`, "error");
          return;
        }
      }
    } catch { /* the process ended */ }
  }

  async #readStderr(child: Deno.ChildProcess): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of child.stderr) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(
          -maxStderrChars,
        );
      }
    } catch { /* the process ended */ }
  }

  #kill(reason: string, outcome: PluginCallResult["outcome"]): void {
    const child = this.#child;
    if (!child) return;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    this.#detach();
    this.#failPending(`${this.#options.code.name} ${reason}`, outcome);
  }

  #detach(): void {
    this.#stdin?.close().catch(() => undefined);
    this.#child = undefined;
    this.#stdin = undefined;
    this.#ready = undefined;
  }

  #failPending(text: string, outcome: PluginCallResult["outcome"]): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.resolve({ outcome, text });
      this.#pending.delete(id);
    }
  }

  #armIdle(): void {
    this.#clearIdle();
    if (this.#pending.size) return;
    this.#idleTimer = setTimeout(() => void this.stop(), this.#options.idleMs);
    Deno.unrefTimer(this.#idleTimer as unknown as number);
  }

  #clearIdle(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}
