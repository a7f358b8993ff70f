/** Turns a command analysis and tools.exec settings into run, ask, or refuse. */
import type { CommandAnalysis } from "./command_classifier.ts";

/** tools.exec.mode */
export type ExecMode = "safe_only" | "block_dangerous" | "allow_all";

/** What exec does with a command. */
export type ExecDecision =
  | { action: "run" }
  | { action: "confirm"; reason: string }
  | { action: "refuse"; reason: string };

/** Read-only programs allowed in safe_only mode. */
export const safePrograms: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "find",
  "fd",
  "stat",
  "file",
  "du",
  "df",
  "pwd",
  "echo",
  "printf",
  "date",
  "cal",
  "whoami",
  "id",
  "groups",
  "uname",
  "hostname",
  "uptime",
  "which",
  "whereis",
  "type",
  "sort",
  "uniq",
  "cut",
  "tr",
  "diff",
  "cmp",
  "comm",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "shasum",
  "md5",
  "cksum",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "tree",
  "jq",
  "yq",
  "column",
  "nl",
  "tac",
  "rev",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "seq",
  "true",
  "false",
  "test",
  "[",
  "[[",
  "expr",
  "bc",
  "ps",
  "free",
  "vm_stat",
  "sw_vers",
  "lsblk",
  "lscpu",
  "nproc",
  "pdfinfo",
  "pdftotext",
  "exiftool",
  "mdls",
  "mdfind",
  "locate",
  "fold",
  "fmt",
  "paste",
  "join",
  "look",
  "zcat",
  "xzcat",
  "bzcat",
  "ping",
  "dig",
  "host",
  "nslookup",
  "sleep",
  "git",
  "ffprobe",
]);

const readOnlyGit =
  /^(status|log|diff|show|branch|tag|remote|rev-parse|ls-files|blame|describe|shortlog)$/;

/** Decides what exec does; `command` is the original text (for git and find checks). */
export function decideExec(
  analysis: CommandAnalysis,
  settings: { mode: ExecMode; confirmDestructive: boolean },
  command: string,
): ExecDecision {
  const dangerous = analysis.findings.filter((finding) => finding.severity === "dangerous");
  const destructive = analysis.findings.filter((finding) => finding.severity === "destructive");
  const reasons = (list: typeof analysis.findings) =>
    [...new Set(list.map((finding) => finding.reason))].join("; ");
  if (settings.mode === "allow_all") {
    const all = [...dangerous, ...destructive];
    if (all.length && settings.confirmDestructive) {
      return { action: "confirm", reason: reasons(all) };
    }
    return { action: "run" };
  }
  if (dangerous.length) return { action: "refuse", reason: reasons(dangerous) };
  if (settings.mode === "safe_only") {
    const unsafe = [...new Set(analysis.programs.filter((name) => !safePrograms.has(name)))];
    if (unsafe.length) {
      return {
        action: "refuse",
        reason: `tools.exec.mode is safe_only and ${unsafe.join(", ")} ${
          unsafe.length > 1 ? "are" : "is"
        } not a read-only command`,
      };
    }
    if (destructive.length) return { action: "refuse", reason: reasons(destructive) };
    if (analysis.writesFiles) {
      return {
        action: "refuse",
        reason: "tools.exec.mode is safe_only and the command writes a file",
      };
    }
    if (/\bfind\b[^|;&]*\s-(exec|execdir|ok|okdir|delete|fprint\w*|fls)\b/.test(command)) {
      return {
        action: "refuse",
        reason: "tools.exec.mode is safe_only and find would act on files",
      };
    }
    const gitVerbs = [...command.matchAll(/\bgit\s+(?:-\S+\s+)*(\S+)/g)].map((match) => match[1]);
    const gitWrite = gitVerbs.find((verb) => !readOnlyGit.test(verb));
    if (gitWrite) {
      return {
        action: "refuse",
        reason: `tools.exec.mode is safe_only and git ${gitWrite} is not read-only`,
      };
    }
    return { action: "run" };
  }
  if (destructive.length) {
    return settings.confirmDestructive
      ? { action: "confirm", reason: reasons(destructive) }
      : { action: "refuse", reason: reasons(destructive) };
  }
  return { action: "run" };
}
