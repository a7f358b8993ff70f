/** Pipelines and sequences: what feeds a program, find's -exec, and download-then-run. */
import { basename } from "node:path";
import type { SimpleCommand } from "./command_parser.ts";
import { isInterpreter } from "./inline_code.ts";
import type { Word } from "./shell_lexer.ts";
import { unknownWord, unwrap } from "./wrappers.ts";

/** Shell programs (their -c scripts and stdin are parsed as shell). */
export const shells = /^(sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|posh|rbash)$/;

export function upstreamProgram(command: SimpleCommand): string | undefined {
  const words = unwrap(
    command.words.filter((word, index) =>
      !(index === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text))
    ),
  ).words;
  if (!words.length || words[0].dynamic) return undefined;
  return basename(words[0].text).toLowerCase();
}

/** The commands of find's -exec/-execdir/-ok/-okdir actions, with {} as an unknown word. */
export function findExecCommands(args: Word[]): Word[][] {
  const found: Word[][] = [];
  for (let index = 0; index < args.length; index++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[index].text)) continue;
    const words: Word[] = [];
    for (index++; index < args.length && !/^(;|\+)$/.test(args[index].text); index++) {
      words.push(args[index].text.includes("{}") ? unknownWord("{}") : args[index]);
    }
    found.push(words);
  }
  return found;
}

/** `curl -o x.sh …; sh x.sh`: a download run as a script in the same command line. */
export function checkDownloadThenRun(
  commands: SimpleCommand[],
  refuse: (reason: string) => void,
): void {
  const names = commands.map((command) => upstreamProgram(command) ?? "");
  const download = names.findIndex((name) => /^(curl|wget|aria2c|fetch|scp|rsync)$/.test(name));
  if (download === -1) return;
  const runs = names.slice(download + 1).find((name, offset) => {
    const words = unwrap(commands[download + 1 + offset].words).words.slice(1);
    if (shells.test(name) || name === "source" || name === "." || isInterpreter(name)) {
      return words.some((word) => !word.text.startsWith("-"));
    }
    return /^\.{0,2}\//.test(name) || name.startsWith("./") ||
      (name === "chmod" && words.some((word) => /x/.test(word.text)));
  });
  if (runs !== undefined) {
    refuse(
      `downloads with ${names[download]} and runs the result (${runs}), which cannot be checked`,
    );
  }
}
