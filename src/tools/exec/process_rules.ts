/** Rules about processes: signalling Radar, detached sessions, servers, remote code, secret stores. */
import type { Finding, RuleContext } from "./program_rules.ts";
import { splitArguments } from "./program_rules.ts";
import type { Word } from "./shell_lexer.ts";

export function killFindings(name: string, args: Word[], context: RuleContext): Finding[] {
  const { operands } = splitArguments(args);
  if (name === "kill") {
    const { signalOnly, operands: targets } = killTargets(args);
    for (const operand of targets) {
      if (operand.dynamic) {
        return [{
          severity: "dangerous",
          reason: `kill of a process chosen at run time (${operand.text})`,
        }];
      }
      const pid = Number(operand.text);
      if (
        /^-?\d+$/.test(operand.text) &&
        (pid === 0 || pid === -1 || context.protectedPids.includes(Math.abs(pid)))
      ) {
        return [{ severity: "dangerous", reason: "kill would stop Radar itself" }];
      }
    }
    if (signalOnly === "-1" && targets.length === 0) {
      return [{ severity: "dangerous", reason: "kill -1 signals every process" }];
    }
    return [];
  }
  for (const operand of operands) {
    if (operand.dynamic) {
      return [{ severity: "dangerous", reason: `${name} of processes chosen at run time` }];
    }
    let pattern: RegExp;
    try {
      pattern = new RegExp(operand.text, "i");
    } catch {
      return [{ severity: "dangerous", reason: `${name} with an unreadable pattern` }];
    }
    if (["radar", "deno", "main.ts"].some((target) => pattern.test(target))) {
      return [{ severity: "dangerous", reason: `${name} ${operand.text} would stop Radar itself` }];
    }
  }
  return [{ severity: "destructive", reason: `${name} stops processes by name` }];
}

/** kill's process operands (`-9 -1`: -9 is the signal, -1 every process). */
function killTargets(args: Word[]): { signalOnly?: string; operands: Word[] } {
  const operands: Word[] = [];
  let signal: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const text = args[index].text;
    if (text === "--") {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (/^-(s|n)$/.test(text)) {
      signal = args[++index]?.text ?? "";
      continue;
    }
    if (/^-[lL]$/.test(text)) return { operands: [] };
    if (text.startsWith("-") && signal === undefined && operands.length === 0) {
      signal = text;
      continue;
    }
    operands.push(args[index]);
  }
  return { signalOnly: operands.length ? undefined : signal, operands };
}

/** Detached sessions, network servers, remote code and secret stores. */
export function otherFindings(name: string, texts: string[], options: string[]): Finding[] {
  const found: Finding[] = [];
  const add = (severity: Finding["severity"], reason: string) => found.push({ severity, reason });
  const verb = texts.find((text) => !text.startsWith("-")) ?? "";
  if (
    (name === "tmux" && /^new(-session)?$/.test(verb) && options.some((o) => /^-\w*d/.test(o))) ||
    (name === "screen" && options.some((option) => /^-\w*d\w*m|^-\w*m\w*d|^-D$/.test(option))) ||
    name === "daemonize" || name === "disown"
  ) {
    add("destructive", `${name} starts a program that outlives the command (escapes the timeout)`);
  }
  if (
    (/^(deno|bun)$/.test(name) && /^(run|x|install|upgrade)$/.test(verb) &&
      texts.some((text) => /^(https?|npm|jsr):/.test(text))) ||
    (name === "deno" && verb === "install" && texts.includes("-g"))
  ) {
    add("dangerous", `${name} ${verb} runs or installs code from the network`);
  }
  const module = texts[texts.indexOf("-m") + 1];
  if (
    (/^(python|pypy)[0-9.]*$/.test(name) && texts.includes("-m") &&
      /^(http\.server|SimpleHTTPServer|uploadserver|pyftpdlib|smtpd)$/.test(module ?? "")) ||
    (/^php[0-9.]*$/.test(name) && options.includes("-S")) ||
    (name === "busybox" && /^(httpd|telnetd|nc)$/.test(verb))
  ) {
    add("dangerous", `${name} would serve files from this machine to the network`);
  }
  if (name === "gpg" || name === "gpg2") {
    if (texts.some((text) => /^--export-secret/.test(text))) {
      add("dangerous", "gpg would print secret keys");
    }
  }
  if (name === "security" && /^(find-\w+-password|dump-keychain|export)$/.test(verb)) {
    if (verb !== "find-generic-password" && verb !== "find-internet-password") {
      add("dangerous", `security ${verb} would print keychain secrets`);
    } else if (options.some((option) => /^-\w*[wg]/.test(option))) {
      add("dangerous", `security ${verb} would print a stored password`);
    }
  }
  const stores: Record<string, RegExp> = {
    pass: /^(?!ls$|list$|find$|search$|help$|version$|init$|git$|generate$|insert$|mv$|cp$|rm$).+/,
    gopass: /^(show|cat|otp|.*\/.*)$/,
    "secret-tool": /^lookup$/,
    op: /^(read|item|inject|run)$/,
    bw: /^get$/,
    lpass: /^show$/,
    keyring: /^get$/,
  };
  if (stores[name]?.test(verb)) add("dangerous", `${name} ${verb} would print stored secrets`);
  if (
    (name === "hash" && options.some((o) => /^-\w*p/.test(o))) ||
    (name === "enable" && options.some((o) => /^-\w*f/.test(o)))
  ) {
    add("dangerous", `${name} changes what a command name runs`);
  }
  return found;
}
