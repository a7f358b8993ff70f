/** SIGUSR1 must never open a V8 inspector in a Radar process (daemon, ask, chat). */
import { firstLine } from "../core/errors.ts";

/** SIGUSR1's number and the C library that sets its disposition, per OS. */
const inspectorSignal: Partial<Record<typeof Deno.build.os, { library: string; number: number }>> =
  {
    linux: { library: "libc.so.6", number: 10 },
    darwin: { library: "/usr/lib/libSystem.B.dylib", number: 30 },
  };

/**
 * Makes SIGUSR1 harmless. Deno ≥ 2.9.2 opens a V8 inspector on 127.0.0.1:9229 when the process
 * receives SIGUSR1 (a JS listener does not stop it, measured on 2.9.6), and anything that can
 * signal the daemon could then run code inside it. A JS listener first makes Deno install its
 * one process-wide handler (it never installs a second); then `signal(SIGUSR1, SIG_IGN)` through
 * FFI replaces that handler, so the kernel drops the signal before Deno sees it. Returns a
 * warning when this is impossible (no --allow-ffi, unknown OS), else undefined.
 */
export function ignoreInspectorSignal(): string | undefined {
  const target = inspectorSignal[Deno.build.os];
  if (!target) return undefined; // Windows: no SIGUSR1
  const installDenoHandler = () => {};
  Deno.addSignalListener("SIGUSR1", installDenoHandler);
  try {
    const libc = Deno.dlopen(target.library, {
      signal: { parameters: ["i32", "usize"], result: "usize" },
    });
    const signalIgnore = 1n;
    libc.symbols.signal(target.number, signalIgnore);
    libc.close();
    return undefined;
  } catch (error) {
    return `SIGUSR1 could open a V8 inspector in this process (${
      firstLine(error)
    }); run with --allow-ffi`;
  } finally {
    // The OS-level disposition stays SIG_IGN: Deno never reinstalls its handler.
    Deno.removeSignalListener("SIGUSR1", installDenoHandler);
  }
}
