/** Strips programs that run another program (env, nohup, timeout, xargs, …) to find the real one. */
import { basename } from "node:path";
import type { Finding } from "./program_rules.ts";
import type { Word } from "./shell_lexer.ts";

/** The program a wrapper chain runs, plus scripts given as strings (env -S, watch, flock -c). */
export interface Unwrapped {
  words: Word[];
  findings: Finding[];
  scripts: string[];
}

/** Options of each wrapper that take a value (so the value is not taken for the program). */
const wrappers: Record<string, { valued: string[]; positional?: number }> = {
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], positional: 1 },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  chrt: { valued: [], positional: 1 },
  taskset: { valued: [], positional: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ["-t", "-w"] },
  strace: { valued: ["-e", "-o", "-p", "-s", "-u"] },
  ltrace: { valued: ["-e", "-o", "-p", "-s", "-u"] },
  torsocks: { valued: [] },
  proxychains: { valued: ["-f"] },
  proxychains4: { valued: ["-f"] },
  xargs: {
    valued: ["-I", "-i", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs"],
  },
  env: { valued: ["-u", "-C", "--unset", "--chdir"] },
  doas: { valued: ["-u", "-C"] },
  sudo: { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"] },
  flock: { valued: ["-w", "-E", "--timeout"], positional: 1 },
  watch: { valued: ["-n", "-d", "--interval"] },
  busybox: { valued: [] },
  toybox: { valued: [] },
  coproc: { valued: [] },
  setsid: { valued: [] },
  parallel: {
    valued: ["-j", "-S", "-a", "-d", "-n", "-N", "-L", "-P", "--jobs", "--sshlogin", "--arg-file"],
  },
  ssh: {
    valued: [
      "-b",
      "-c",
      "-D",
      "-E",
      "-e",
      "-F",
      "-I",
      "-i",
      "-J",
      "-L",
      "-l",
      "-m",
      "-O",
      "-o",
      "-p",
      "-Q",
      "-R",
      "-S",
      "-W",
      "-w",
    ],
    positional: 1,
  },
  script: { valued: ["-c", "--command", "-T", "-E"] },
};

/** Follows wrapper programs (recording escalation and scripts they run) to the real program. */
export function unwrap(input: Word[]): Unwrapped {
  const result: Unwrapped = { words: [...input], findings: [], scripts: [] };
  for (let guard = 0; guard < 20 && result.words.length; guard++) {
    const head = result.words[0];
    if (head.dynamic) return result;
    const name = basename(head.text).toLowerCase();
    const spec = wrappers[name];
    if (!spec) return result;
    if (name === "sudo" || name === "doas") {
      result.findings.push({
        severity: "dangerous",
        reason: `${name} runs a program as another user`,
      });
    }
    if (name === "command" && result.words[1]?.text.match(/^-[vV]$/)) return result;
    if (name === "setsid") {
      result.findings.push({
        severity: "destructive",
        reason: "setsid starts a program that escapes the timeout (a new session)",
      });
    }
    let index = 1;
    let positional = spec.positional ?? 0;
    while (index < result.words.length) {
      const text = result.words[index].text;
      if (text === "--") {
        index++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        if (/^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|BASH_ENV|ENV)=/.test(text)) {
          result.findings.push({
            severity: "dangerous",
            reason: `env sets ${text.split("=")[0]}, which changes what programs run`,
          });
        }
        index++;
        continue;
      }
      const envSplit = name === "env" && /^-[a-zA-Z]*S/.test(text);
      if (envSplit && !/^-[a-zA-Z]*S$/.test(text)) { // -S'rm -rf ~', -iS'…'
        result.scripts.push(text.slice(text.indexOf("S") + 1));
        result.words = [];
        return result;
      }
      if (
        (envSplit || (name === "env" && text.startsWith("--split-string"))) ||
        (name === "script" && (text === "-c" || text === "--command")) ||
        (name === "flock" && (text === "-c" || text === "--command"))
      ) {
        const value = text.includes("=")
          ? text.split("=").slice(1).join("=")
          : result.words[index + 1]?.text;
        if (value !== undefined) result.scripts.push(value);
        result.words = [];
        return result;
      }
      if (text.startsWith("-") && text !== "-") {
        const option = text.split("=")[0];
        const takesValue = spec.valued.includes(option) && !text.includes("=");
        const attached = spec.valued.some((valued) =>
          valued.length === 2 && text.startsWith(valued) && text.length > 2
        );
        index += takesValue && !attached ? 2 : 1;
        continue;
      }
      if (positional > 0) {
        positional--;
        index++;
        continue;
      }
      break;
    }
    let rest = result.words.slice(index);
    if (name === "parallel") {
      const inputs = rest.findIndex((word) => /^:::+\+?$/.test(word.text));
      if (inputs !== -1) rest = rest.slice(0, inputs);
      if (!rest.length) {
        result.findings.push({
          severity: "dangerous",
          reason: "parallel runs its input lines as commands, which cannot be checked",
        });
        result.words = [];
        return result;
      }
    }
    if ((name === "watch" || name === "ssh") && rest.length) {
      result.scripts.push(rest.map((word) => word.text).join(" "));
      result.words = [];
      return result;
    }
    result.words = (name === "xargs" || name === "parallel") && rest.length
      ? [...rest, unknownWord(`(${name} input)`)]
      : rest;
  }
  return result;
}

/** A word standing for text only known at run time (xargs input, find's {}). */
export function unknownWord(text: string): Word {
  return {
    text,
    dynamic: true,
    glob: false,
    quoted: false,
    substitutions: [],
    processSubstitution: false,
  };
}
