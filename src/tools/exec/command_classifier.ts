/**
 * Checks a shell command line before exec runs it. Survives trivial evasion: quoting, `\rm`,
 * `$'\x72m'`, env prefixes and wrappers (env, command, nohup, timeout, xargs …), `sh -c`,
 * `$(…)`, backticks, pipelines, `eval`, here-documents and inline interpreter code. When the
 * line cannot be followed, it is refused with the reason.
 */
import { basename, isAbsolute, join, normalize } from "node:path";
import { parseCommandLine, type SimpleCommand } from "./command_parser.ts";
import { checkCode, codeSource, isInterpreter } from "./inline_code.ts";
import { type Finding, programFindings, type RuleContext } from "./program_rules.ts";
import { ShellSyntaxError, type Word } from "./shell_lexer.ts";
import { unknownWord, unwrap } from "./wrappers.ts";

export type { Finding } from "./program_rules.ts";

/** What the classifier needs to know. */
export interface ClassifierOptions {
  home: string;
  cwd: string;
  protectedPids: readonly number[];
  /** The path guard: a refusal reason, or undefined when the access is allowed. */
  checkPath(path: string, access: "read" | "write"): string | undefined;
}

/** The result of checking a command line. */
export interface CommandAnalysis {
  findings: Finding[];
  /** Every program the line runs, lower-cased, after unwrapping (for safe_only). */
  programs: string[];
  /** True when a redirection writes a file (not /dev/null). */
  writesFiles: boolean;
}

const shells = /^(sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|posh|rbash)$/;
const downloaders =
  /^(curl|wget|fetch|aria2c|http|https|xh|nc|ncat|netcat|socat|telnet|openssl|ssh|scp)$/;
const echoes = /^(echo|printf|cat)$/;
const dangerousVariables =
  /^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|IFS|SHELLOPTS|BASHOPTS|PS4|GIT_SSH\w*|GIT_EXEC_PATH|PYTHONSTARTUP|PERL5OPT|NODE_OPTIONS|RUBYOPT)$/;
const writers =
  /^(tee|truncate|touch|sed|rm|shred|chmod|chown|chgrp|mkdir|rmdir|unlink|mv|ln|cp|install|rsync|dd|curl|wget)$/;
const maxDepth = 8;

/** Checks a command line and everything it would run. */
export function analyzeCommand(source: string, options: ClassifierOptions): CommandAnalysis {
  const analysis: CommandAnalysis = { findings: [], programs: [], writesFiles: false };
  checkLine(source, options, analysis, 0);
  return analysis;
}

function checkLine(
  source: string,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  depth: number,
): void {
  const refuse = (reason: string): void =>
    void analysis.findings.push({ severity: "dangerous", reason });
  if (depth > maxDepth) return refuse("commands nested too deeply to check");
  if (/\/dev\/(tcp|udp)\//.test(source)) {
    refuse("opens a raw network connection via /dev/tcp (reverse shell pattern)");
  }
  if (/(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1/.test(source)) refuse("fork bomb pattern");
  let parsed;
  try {
    parsed = parseCommandLine(source);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return refuse(`cannot parse the command (${error.message})`);
  }
  if (parsed.unsupported) refuse(`cannot check ${parsed.unsupported}`);
  for (const inner of parsed.substitutions) checkLine(inner, options, analysis, depth + 1);
  for (const command of parsed.commands) checkCommand(command, options, analysis, depth);
}

function checkCommand(
  command: SimpleCommand,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  depth: number,
): void {
  const refuse = (reason: string): void =>
    void analysis.findings.push({ severity: "dangerous", reason });
  const context = ruleContext(options);
  checkRedirects(command, options, analysis, context, depth);
  let words = [...command.words];
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[0].text) && !words[0].quoted) {
    const name = words[0].text.split(/\+?=/)[0];
    if (dangerousVariables.test(name)) refuse(`sets ${name}, which changes what programs run`);
    words.shift();
  }
  if (!words.length) return;
  const unwrapped = unwrap(words);
  for (const finding of unwrapped.findings) analysis.findings.push(finding);
  for (const script of unwrapped.scripts) checkLine(script, options, analysis, depth + 1);
  words = unwrapped.words;
  if (!words.length) return;
  const head = words[0];
  if (head.dynamic) {
    return refuse(`the program name is computed at run time (${head.text})`);
  }
  const name = basename(head.text).toLowerCase();
  analysis.programs.push(name);
  const args = words.slice(1);
  if (command.insideFunctions.includes(head.text)) {
    refuse(`fork bomb pattern (${head.text} calls itself)`);
  }
  analysis.findings.push(...programFindings(name, args, context));
  checkPaths(name, args, options, analysis);
  if (name === "find") {
    for (const executed of findExecCommands(args)) {
      checkCommand({ ...command, words: executed, redirects: [] }, options, analysis, depth + 1);
    }
  }
  if (name === "eval") {
    if (args.some((arg) => arg.dynamic)) return refuse("eval of text built at run time");
    return checkLine(args.map((arg) => arg.text).join(" "), options, analysis, depth + 1);
  }
  if (name === "alias") {
    for (const arg of args) {
      checkLine(arg.text.replace(/^[^=]*=/, ""), options, analysis, depth + 1);
    }
  }
  if (shells.test(name) || name === "source" || name === ".") {
    return checkShell(name, args, command, options, analysis, depth);
  }
  if (isInterpreter(name)) checkInterpreter(name, args, command, options, analysis, depth);
}

function checkShell(
  name: string,
  args: Word[],
  command: SimpleCommand,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  depth: number,
): void {
  const refuse = (reason: string): void =>
    void analysis.findings.push({ severity: "dangerous", reason });
  if (args.some((arg) => arg.processSubstitution)) {
    return refuse(`${name} runs code from a process substitution`);
  }
  if (name !== "source" && name !== ".") {
    const flag = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.text));
    if (flag !== -1) {
      const script = args[flag + 1];
      if (!script) return refuse(`${name} -c without a command`);
      if (script.dynamic) return refuse(`${name} -c runs a script built at run time`);
      return checkLine(script.text, options, analysis, depth + 1);
    }
    const operand = args.find((arg) => !arg.text.startsWith("-") || arg.text === "-");
    if (operand && operand.text !== "-" && operand.text !== "/dev/stdin") return; // a script file
  }
  checkStdinCode(
    name,
    command,
    options,
    analysis,
    depth,
    (text) => checkLine(text, options, analysis, depth + 1),
  );
}

function checkInterpreter(
  name: string,
  args: Word[],
  command: SimpleCommand,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  depth: number,
): void {
  const source = codeSource(name, args);
  const checkText = (code: string) => {
    analysis.findings.push(...checkCode(name, code));
    checkProtectedMentions(code, options, analysis);
  };
  if (source.kind === "inline") {
    if (source.code.dynamic && source.code.substitutions.length) {
      analysis.findings.push({
        severity: "dangerous",
        reason: `${name} runs code built at run time`,
      });
    }
    return checkText(source.code.text);
  }
  if (source.kind === "stdin") checkStdinCode(name, command, options, analysis, depth, checkText);
}

/** Code a shell or interpreter reads from stdin: a here-document, a here-string or a pipe. */
function checkStdinCode(
  name: string,
  command: SimpleCommand,
  _options: ClassifierOptions,
  analysis: CommandAnalysis,
  _depth: number,
  check: (text: string) => void,
): void {
  const refuse = (reason: string): void =>
    void analysis.findings.push({ severity: "dangerous", reason });
  const input = command.redirects.find((redirect) => /^<<|^<$|^<>$/.test(redirect.op));
  if (input?.heredoc !== undefined) return check(input.heredoc);
  if (input?.op === "<<<") {
    if (input.target.dynamic) return refuse(`${name} reads code built at run time`);
    return check(input.target.text);
  }
  if (input) return; // a script file
  if (command.stage === 0) return; // an interactive shell with nothing piped in
  for (const upstream of command.pipeline.slice(0, command.stage)) {
    const upstreamName = upstreamProgram(upstream);
    if (upstreamName === undefined) return refuse(`pipes text built at run time into ${name}`);
    if (downloaders.test(upstreamName)) {
      return refuse(`pipes a download (${upstreamName}) into ${name}`);
    }
    if (!echoes.test(upstreamName)) {
      return refuse(`pipes the output of ${upstreamName} into ${name}, which cannot be checked`);
    }
    const words = upstream.words.slice(1).filter((word) => !/^-[neE]+$/.test(word.text));
    if (words.some((word) => word.dynamic)) {
      return refuse(`pipes text built at run time into ${name}`);
    }
    const heredoc = upstream.redirects.find((redirect) => redirect.heredoc !== undefined)?.heredoc;
    if (upstreamName === "cat" && words.length) {
      return refuse(`pipes a file into ${name}, which cannot be checked`);
    }
    const text = heredoc ?? words.map((word) => word.text).join(" ");
    check(upstreamName === "printf" ? text.replace(/\\n/g, "\n") : text);
  }
}

/** The commands of find's -exec/-execdir/-ok/-okdir actions, with {} as an unknown word. */
function findExecCommands(args: Word[]): Word[][] {
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

function upstreamProgram(command: SimpleCommand): string | undefined {
  const words = unwrap(
    command.words.filter((word, index) =>
      !(index === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text))
    ),
  ).words;
  if (!words.length || words[0].dynamic) return undefined;
  return basename(words[0].text).toLowerCase();
}

function checkRedirects(
  command: SimpleCommand,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  context: RuleContext,
  depth: number,
): void {
  for (const redirect of command.redirects) {
    const target = redirect.target;
    if (redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<<<") continue;
    if ((redirect.op === ">&" || redirect.op === "<&") && /^(\d+|-)$/.test(target.text)) continue;
    if (target.processSubstitution) continue;
    const writes = redirect.op !== "<" && redirect.op !== "<&";
    if (target.substitutions.length) {
      analysis.findings.push({
        severity: "dangerous",
        reason: `redirects to a file name computed at run time (${target.text})`,
      });
      continue;
    }
    const path = context.resolve(target) ?? target.text;
    if (writes && /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(path)) continue;
    if (
      writes && /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mem|kmem|port|mapper\/)/.test(path)
    ) {
      analysis.findings.push({ severity: "destructive", reason: `writes to the device ${path}` });
      continue;
    }
    if (writes) analysis.writesFiles = true;
    const reason = options.checkPath(path, writes ? "write" : "read");
    if (reason) analysis.findings.push({ severity: "dangerous", reason });
  }
  void depth;
}

function checkPaths(
  name: string,
  args: Word[],
  options: ClassifierOptions,
  analysis: CommandAnalysis,
): void {
  const context = ruleContext(options);
  const writes = writers.test(name);
  for (const arg of args) {
    const candidates = [arg];
    const equals = arg.text.indexOf("=");
    if (arg.text.startsWith("-") && equals > 0) {
      candidates.push({ ...arg, text: arg.text.slice(equals + 1) });
    } else if (arg.text.startsWith("-")) continue;
    for (const candidate of candidates) {
      if (!candidate.text) continue;
      if (/^\/proc\/[^/]+\/(environ|mem|maps|cmdline)$/.test(candidate.text)) {
        analysis.findings.push({ severity: "dangerous", reason: `reads ${candidate.text}` });
      }
      const path = context.resolve(candidate);
      if (path === undefined) continue;
      const pattern = candidate.glob ? globPrefix(path) : path;
      const reason = options.checkPath(pattern, "read") ??
        (writes ? options.checkPath(pattern, "write") : undefined);
      if (reason) analysis.findings.push({ severity: "dangerous", reason });
    }
  }
}

/** The folder part of a glob before its first wildcard segment ("~/.ss*\/x" → "~/"). */
function globPrefix(path: string): string {
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

function checkProtectedMentions(
  code: string,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
): void {
  for (const match of code.matchAll(/(~|\/)[^\s'"`;,)]+/g)) {
    const text = match[0];
    const path = text.startsWith("~") ? `${options.home}${text.slice(1)}` : text;
    const reason = options.checkPath(path, "write");
    if (reason) {
      analysis.findings.push({
        severity: "dangerous",
        reason: `inline code mentions ${text}: ${reason}`,
      });
      return;
    }
  }
  if (
    /\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b|authorized_keys|crontab|LaunchAgents|autostart/
      .test(code)
  ) {
    analysis.findings.push({
      severity: "dangerous",
      reason: "inline code mentions shell start-up, schedule or key files",
    });
  }
}

function ruleContext(options: ClassifierOptions): RuleContext {
  return {
    home: options.home,
    protectedPids: options.protectedPids,
    resolve(word: Word): string | undefined {
      let text = word.text;
      text = text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, options.home);
      if (/[$`]/.test(text)) return undefined;
      if (word.dynamic && text === word.text) return undefined;
      if (text === "~" || text.startsWith("~/")) text = options.home + text.slice(1);
      if (text.startsWith("~")) return undefined;
      return normalize(isAbsolute(text) ? text : join(options.cwd, text));
    },
  };
}
