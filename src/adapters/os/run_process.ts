/**
 * THE process runner: a program as argv (never a shell) in its own process group, with capped
 * output and a timeout that kills the whole group. The exec tool, custom checks, gh, password_cmd
 * and the keychain all run their programs through it.
 */
import { concatBytes } from "../../core/bytes.ts";

/** How to run one program. */
export interface ProcessOptions {
  argv: string[];
  /** Working folder (default: this process's). */
  cwd?: string;
  /** The child's whole environment (default: this process's, inherited). */
  env?: Record<string, string>;
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr each; the rest is counted and dropped. */
  maxOutputBytes: number;
  /**
   * Stop the group as soon as stdout passes the cap (for callers that want only the start of the
   * output: an endless printer is stopped, not waited out). Default: keep draining to the end.
   */
  stopAtOutputCap?: boolean;
  signal?: AbortSignal;
  /** Written to the program's stdin, then closed (default: no stdin). */
  stdin?: Uint8Array;
}

/** What happened. */
export interface ProcessResult {
  code: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes dropped beyond the cap. */
  stdoutCut: number;
  stderrCut: number;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Spawns `argv` detached (a new session, so its process group id is its pid) and kills the whole
 * group with SIGKILL on timeout or abort, so grandchildren die too.
 */
export async function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const [program, ...args] = options.argv;
  const child = new Deno.Command(program, {
    args,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env, clearEnv: true } : {}),
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let timedOut = false;
  let aborted = false;
  const killGroup = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    killGroup();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const stdout = collect(
    child.stdout,
    options.maxOutputBytes,
    options.stopAtOutputCap ? killGroup : undefined,
  );
  const stderr = collect(child.stderr, options.maxOutputBytes);
  if (options.stdin) void writeInput(child.stdin, options.stdin);
  try {
    const status = await child.status;
    // Whatever is left in the group (a background child holding the pipes) dies with it.
    killGroup();
    const [out, err] = await Promise.all([settle(stdout), settle(stderr)]);
    return {
      code: status.code,
      signal: status.signal,
      stdout: out.text,
      stderr: err.text,
      stdoutCut: out.cut,
      stderrCut: err.cut,
      timedOut,
      aborted,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** Writes `bytes` and closes; a program that ends first just misses the rest. */
async function writeInput(stdin: WritableStream<Uint8Array>, bytes: Uint8Array): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(bytes);
    await writer.close();
  } catch {
    await writer.abort().catch(() => {});
  }
}

interface Collected {
  text: string;
  cut: number;
  done: Promise<void>;
  cancel(): void;
}

/** Reads `stream`, keeping `max` bytes; `onCut` runs once when the first byte is dropped. */
function collect(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onCut?: () => void,
): Collected {
  const kept: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  const collected: Collected = {
    text: "",
    cut: 0,
    done: Promise.resolve(),
    cancel: () => void reader.cancel().catch(() => {}),
  };
  collected.done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        const room = max - size;
        if (room > 0) kept.push(value.subarray(0, room));
        size += Math.min(room > 0 ? room : 0, value.length);
        if (value.length > room) {
          if (!collected.cut) onCut?.();
          collected.cut += value.length - Math.max(room, 0);
        }
      }
    } catch { /* cancelled */ }
    collected.text = new TextDecoder().decode(concatBytes(kept));
  })();
  return collected;
}

/** Waits for a stream to end, at most 2 s after the process exited (escaped children). */
async function settle(collected: Collected): Promise<Collected> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      collected.cancel();
      resolve();
    }, 2000);
  });
  await Promise.race([collected.done, late]);
  clearTimeout(timer);
  await collected.done;
  return collected;
}
