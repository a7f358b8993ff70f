/**
 * Checks a shell command line before exec runs it. Survives trivial evasion: quoting, `\rm`,
 * `$'\x72m'`, env prefixes and wrappers (env, command, nohup, timeout, xargs …), `sh -c`,
 * `$(…)`, backticks, pipelines, `eval`, here-documents and inline interpreter code. When the
 * line cannot be followed, it is refused with the reason.
 */
import { basename } from "node:path";
import { commandVariables, embeddedCommands } from "./embedded_commands.ts";
import { parseCommandLine, type SimpleCommand } from "./command_parser.ts";
import { checkCode, codeSource, isInterpreter } from "./inline_code.ts";
import { type Finding, literalWord, programFindings, type RuleContext } from "./program_rules.ts";
import { checkDownloadThenRun, findExecCommands, shells, upstreamProgram } from "./pipelines.ts";
import {
  braceExpansions,
  type ClassifierOptions,
  findOutputs,
  globPrefix,
  recursiveReadFinding,
  ruleContext,
  unknownFolder,
} from "./path_words.ts";
import { ShellSyntaxError, type Word } from "./shell_lexer.ts";
import { unwrap } from "./wrappers.ts";

export type { Finding } from "./program_rules.ts";
export type { ClassifierOptions } from "./path_words.ts";

/** The result of checking a command line. */
export interface CommandAnalysis {
  findings: Finding[];
  /** Every program the line runs, lower-cased, after unwrapping (for safe_only). */
  programs: string[];
  /** True when a redirection writes a file (not /dev/null). */
  writesFiles: boolean;
}

const downloaders =
  /^(curl|wget|fetch|aria2c|http|https|xh|nc|ncat|netcat|socat|telnet|openssl|ssh|scp)$/;
const echoes = /^(echo|printf|cat)$/;
const dangerousVariables =
  /^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|IFS|SHELLOPTS|BASHOPTS|PS4|GIT_SSH\w*|GIT_EXEC_PATH|PYTHONSTARTUP|PERL5OPT|NODE_OPTIONS|RUBYOPT)$/;
const writers =
  /^(tee|truncate|touch|sed|rm|shred|chmod|chown|chgrp|mkdir|rmdir|unlink|mv|ln|cp|install|rsync|dd|curl|wget)$/;
const maxDepth = 8;
const diskDevice =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mem|kmem|port|mapper\/|dm-|md\d|loop)/;

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
  let current = options;
  for (const command of parsed.commands) {
    checkCommand(command, current, analysis, depth);
    current = afterDirectoryChange(command, current);
  }
  checkDownloadThenRun(parsed.commands, refuse);
}

/** Follows `cd`/`pushd` so later relative paths resolve where the shell will be. */
function afterDirectoryChange(command: SimpleCommand, options: ClassifierOptions) {
  const words = command.words;
  if (!words.length || !/^(cd|pushd|chdir)$/.test(words[0].text)) return options;
  const target = words.slice(1).find((word) => !/^-[LPe@]*$/.test(word.text));
  if (!target) return { ...options, cwd: options.home };
  const path = ruleContext(options).resolve(target);
  return { ...options, cwd: path ?? unknownFolder };
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
  // A quoted 'NAME=value' is a program name to the shell; checking the rest is stricter.
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[0].text)) {
    checkAssignment(words.shift()!, options, analysis, depth);
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
  if (/^(export|declare|typeset|readonly|local)$/.test(name)) {
    for (const arg of args) {
      if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(arg.text)) {
        checkAssignment(arg, options, analysis, depth);
      }
    }
  }
  if (name === "trap" && args[0] && !args[0].text.startsWith("-")) {
    if (args[0].dynamic) refuse("trap of a command built at run time");
    else checkLine(args[0].text, options, analysis, depth + 1);
  }
  const embedded = embeddedCommands(name, args);
  analysis.findings.push(...embedded.findings);
  for (const script of embedded.scripts) checkLine(script, options, analysis, depth + 1);
  for (const written of [...embedded.writes, ...findOutputs(name, args)]) {
    analysis.writesFiles = true;
    const path = context.resolve(literalWord(written));
    const reason = path === undefined ? undefined : options.checkPath(path, "write");
    if (reason) refuse(reason);
  }
  if (/^(perl|ruby)[0-9.]*$/.test(name) && args.some((arg) => /^-[a-zA-Z]*i/.test(arg.text))) {
    checkPaths("sed", args.filter((arg) => !arg.text.startsWith("-")), options, analysis);
  }
  const recursiveRead = recursiveReadFinding(name, args, context, options);
  if (recursiveRead) refuse(recursiveRead);
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
      const script = args[flag + 1]?.text === "--" ? args[flag + 2] : args[flag + 1];
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
    if (writes && diskDevice.test(path)) {
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
  for (const arg of args.flatMap(braceExpansions)) {
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
      if (diskDevice.test(path)) {
        analysis.findings.push({
          severity: "destructive",
          reason: `${name} uses the disk ${path}`,
        });
      }
      const pattern = candidate.glob ? globPrefix(path) : path;
      const reason = options.checkPath(pattern, "read") ??
        (writes ? options.checkPath(pattern, "write") : undefined);
      if (reason) analysis.findings.push({ severity: "dangerous", reason });
    }
  }
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

function checkAssignment(
  word: Word,
  options: ClassifierOptions,
  analysis: CommandAnalysis,
  depth: number,
): void {
  const refuse = (reason: string): void =>
    void analysis.findings.push({ severity: "dangerous", reason });
  const [name] = word.text.split(/\+?=/);
  const value = word.text.slice(word.text.indexOf("=") + 1);
  if (dangerousVariables.test(name)) refuse(`sets ${name}, which changes what programs run`);
  if (commandVariables.test(name)) {
    if (word.dynamic) refuse(`sets ${name} to a command built at run time`);
    else checkLine(value, options, analysis, depth + 1);
  }
}
