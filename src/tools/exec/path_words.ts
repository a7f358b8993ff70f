/**
 * Turning command words into real paths for the classifier: `~`, `~user`, `$HOME`, the working
 * folder after `cd`, symlinks, brace expansion, glob prefixes, and whole-tree readers.
 */
import { basename, dirname, isAbsolute, join, normalize } from "node:path";
import { canonicalPath } from "../canonical_path.ts";
import { homeSecretPaths } from "../path_rules.ts";
import { literalWord, type RuleContext, splitArguments } from "./program_rules.ts";
import type { Word } from "./shell_lexer.ts";

/** What the classifier needs to know. */
export interface ClassifierOptions {
  home: string;
  cwd: string;
  protectedPids: readonly number[];
  /** The path guard: a refusal reason, or undefined when the access is allowed. */
  checkPath(path: string, access: "read" | "write"): string | undefined;
}

/** A working folder that is not known before the command runs. */
export const unknownFolder = "/\0unknown";

/** The folder part of a glob before its first wildcard segment ("~/.ss*\/x" → "~/"). */
export function globPrefix(path: string): string {
  const segments = path.split("/");
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  const prefix = segments.slice(0, first === -1 ? segments.length : first).join("/") || "/";
  const wild = first === -1 ? "" : segments[first];
  if (/^\.?[*?[]/.test(wild) || wild.startsWith(".")) {
    // `.*`, `.s*`: may match a hidden secret folder; check the likely ones by name.
    const pattern = new RegExp(
      `^${wild.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`,
    );
    for (const name of [".ssh", ".gnupg", ".aws", ".password-store", ".netrc", ".env", ".kube"]) {
      if (pattern.test(name)) return `${prefix}/${name}`;
    }
  }
  return prefix;
}

export function ruleContext(options: ClassifierOptions): RuleContext {
  return {
    home: realPath(options.home),
    protectedPids: options.protectedPids,
    resolve(word: Word): string | undefined {
      let text = word.text;
      text = text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, options.home);
      if (/[$`]/.test(text)) return undefined;
      if (word.dynamic && text === word.text) return undefined;
      const tilde = /^~([^/]*)/.exec(text);
      if (tilde) {
        const user = tilde[1];
        if (user === "-") return undefined;
        const base = user === "" || user === basename(options.home)
          ? options.home
          : user === "+"
          ? options.cwd
          : join(dirname(options.home), user);
        text = base + text.slice(tilde[0].length);
      }
      if (!isAbsolute(text) && options.cwd === unknownFolder) return undefined;
      return realPath(isAbsolute(text) ? text : join(options.cwd, text));
    },
  };
}

/** The path with symlinks followed (so /tmp/link-to-home is seen as home). */
function realPath(path: string): string {
  try {
    return canonicalPath(path);
  } catch {
    return normalize(path);
  }
}

/** Files find writes its output to (-fprint, -fprintf, -fls). */
export function findOutputs(name: string, args: Word[]): string[] {
  if (name !== "find") return [];
  return args.flatMap((arg, index) =>
    /^-(fprint0?|fprintf|fls)$/.test(arg.text) && args[index + 1] ? [args[index + 1].text] : []
  );
}

/** Programs that copy or search whole folder trees, and whether this call does. */
function readsRecursively(name: string, args: Word[]): boolean {
  const texts = args.map((arg) => arg.text);
  const flag = (letters: RegExp, long: RegExp) =>
    texts.some((text) => long.test(text) || (/^-[^-]/.test(text) && letters.test(text.slice(1))));
  if (/^(e|f|z)?grep$/.test(name)) return flag(/[rR]/, /^--(recursive|dereference-recursive)$/);
  if (name === "rgrep") return true;
  if (name === "rg" || name === "ag") {
    return flag(/[u.]/, /^--(hidden|unrestricted|no-ignore\S*)$/);
  }
  if (/^(g|bsd)?tar$/.test(name)) {
    return /^-?[a-zA-Z]*[cr]/.test(texts[0] ?? "") && !texts[0].startsWith("--") ||
      texts.some((text) => /^--(create|append)$/.test(text));
  }
  if (name === "zip") return flag(/[rR]/, /^--recurse/);
  if (name === "cp" || name === "scp") return flag(/[rRa]/, /^--(recursive|archive)$/);
  if (name === "rsync") return flag(/[ra]/, /^--(recursive|archive)$/);
  if (/^7z[ar]?$/.test(name)) return texts[0] === "a";
  return false;
}

/** Refuses copying or searching a folder that holds protected files (~, ~/.config …). */
export function recursiveReadFinding(
  name: string,
  args: Word[],
  context: RuleContext,
  options: ClassifierOptions,
): string | undefined {
  if (!readsRecursively(name, args)) return undefined;
  let { operands } = splitArguments(args);
  const patternGiven = args.some((arg) => /^(-e|-f|--regexp|--file)/.test(arg.text));
  if (/grep$|^rg$|^ag$/.test(name) && !patternGiven) operands = operands.slice(1);
  if (!operands.length && /grep$|^rg$|^ag$/.test(name)) operands = [literalWord(".")];
  if (/^(cp|scp|rsync)$/.test(name)) operands = operands.slice(0, -1); // the last is the target
  for (const operand of operands) {
    const folder = context.resolve(operand);
    if (folder === undefined) continue;
    const inside = (path: string) => folder === "/" || path.startsWith(`${folder}/`);
    for (const secret of homeSecretPaths) {
      const path = join(context.home, secret);
      if (!inside(path)) continue;
      const reason = options.checkPath(path, "read");
      if (reason) {
        return `${name} would read everything under ${operand.text}, including ~/${secret} (protected); name a sub-folder instead`;
      }
    }
  }
  return undefined;
}

/** `~/.ss{h,x}` → `~/.ssh`, `~/.ssx` (at most 64 words; other words unchanged). */
export function braceExpansions(word: Word): Word[] {
  if (!word.dynamic || /[$`]/.test(word.text) || !/\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.text)) {
    return [word];
  }
  let texts = [word.text];
  for (let round = 0; round < 8; round++) {
    const next: string[] = [];
    for (const text of texts) {
      const match = /\{([^{}]*)\}/.exec(text);
      if (!match || !/,|\.\./.test(match[1])) {
        next.push(text);
        continue;
      }
      const range = /^(-?\w+)\.\.(-?\w+)$/.exec(match[1]);
      const parts = range ? expandRange(range[1], range[2]) : match[1].split(",");
      for (const part of parts) {
        next.push(text.slice(0, match.index) + part + text.slice(match.index + match[0].length));
      }
    }
    texts = next.slice(0, 64);
  }
  return texts.map((text) => ({ ...word, text, dynamic: false }));
}

function expandRange(from: string, to: string): string[] {
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const out: string[] = [];
  for (let value = start; out.length < 64; value += start <= end ? 1 : -1) {
    out.push(numeric ? String(value) : String.fromCharCode(value));
    if (value === end) break;
  }
  return out;
}
