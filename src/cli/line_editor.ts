/**
 * Line input for `radar chat`: on a terminal node:readline (editing, history kept owner-only in
 * the data folder, Ctrl-C and Ctrl-D as keys); elsewhere plain lines from CliIo.readLine.
 */
import { chmodSync, writeFileSync } from "node:fs";
import process from "node:process";
import { createInterface, type Interface } from "node:readline";
import type { CliIo, LineEditor, ReadResult } from "./context.ts";

/** How many history entries the file keeps. */
const chatHistoryLimit = 500;

/** Plain lines from `io.readLine` (pipes, tests): no editing, no interrupts. */
export function plainLineEditor(io: CliIo): LineEditor {
  return {
    read: async (prompt) => {
      const line = await io.readLine(prompt);
      return line === null ? { kind: "end" } : { kind: "line", text: line };
    },
    onInterruptWhileBusy: () => {},
    close: () => {},
  };
}

/** node:readline on the process's terminal, with history in `historyPath` (mode 0600). */
export function terminalLineEditor(historyPath: string): LineEditor {
  const history = readHistory(historyPath);
  const readline: Interface = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history: [...history].reverse(), // readline wants the newest first
    historySize: chatHistoryLimit,
    removeHistoryDuplicates: true,
  });
  let pending: ((result: ReadResult) => void) | undefined;
  const typedAhead: string[] = []; // lines entered while no read was waiting (pasted text)
  let busyHandler: (() => void) | undefined;
  let closed = false;
  const settle = (result: ReadResult) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(result);
  };
  readline.on("line", (text) => pending ? settle({ kind: "line", text }) : typedAhead.push(text));
  readline.on("close", () => {
    closed = true;
    settle({ kind: "end" });
  });
  readline.on("history", (entries: string[]) => {
    writeHistory(historyPath, [...entries].reverse());
  });
  readline.on("SIGINT", () => {
    if (!pending) return busyHandler?.();
    const hadText = readline.line.length > 0;
    readline.write(null, { ctrl: true, name: "u" }); // clear what was typed
    process.stdout.write("\n");
    settle({ kind: "interrupt", hadText });
  });
  return {
    read(prompt) {
      const next = typedAhead.shift();
      if (next !== undefined) return Promise.resolve({ kind: "line", text: next });
      if (closed) return Promise.resolve({ kind: "end" });
      return new Promise((resolve) => {
        pending = resolve;
        readline.setPrompt(prompt);
        readline.prompt();
      });
    },
    onInterruptWhileBusy(handler) {
      busyHandler = handler;
    },
    close() {
      if (!closed) readline.close();
    },
  };
}

function readHistory(path: string): string[] {
  try {
    return Deno.readTextFileSync(path).split("\n").filter((line) => line.length > 0)
      .slice(-chatHistoryLimit);
  } catch {
    return [];
  }
}

function writeHistory(path: string, entries: string[]): void {
  try {
    writeFileSync(path, `${entries.slice(-chatHistoryLimit).join("\n")}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch {
    // History is a convenience: a read-only data folder must not stop the chat.
  }
}
