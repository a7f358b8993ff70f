/** Finds inline code given to interpreters (python -c, perl -e, node -e, …) and checks it. */
import type { Word } from "./shell_lexer.ts";

/** A finding about inline interpreter code. */
export interface CodeFinding {
  severity: "destructive" | "dangerous";
  reason: string;
}

/** Programs that run code, and the options that take inline code. */
const interpreters: Array<[RegExp, string[]]> = [
  [/^(python|pypy)[0-9.]*$/, ["-c"]],
  [/^(perl)[0-9.]*$/, ["-e", "-E"]],
  [/^(ruby|jruby)[0-9.]*$/, ["-e"]],
  [/^(node|nodejs|bun)$/, ["-e", "--eval", "-p", "--print"]],
  [/^deno$/, ["eval"]],
  [/^(php)[0-9.]*$/, ["-r"]],
  [/^(lua|luajit)[0-9.]*$/, ["-e"]],
  [/^(rscript)$/, ["-e"]],
  [/^(osascript)$/, ["-e"]],
  [/^(tclsh|wish|expect)$/, ["-c"]],
  [/^(pwsh|powershell)$/, ["-c", "-command"]],
  [/^(gawk|awk|mawk|nawk)$/, []],
];

/** Options whose value is the next word (`python -W ignore -c …`), by interpreter. */
const valuedOptions =
  /^((python|pypy)[0-9.]* -[WXQ]|(perl)[0-9.]* -[IMmx]|(ruby|jruby)[0-9.]* -[IrCE]|(node|nodejs|bun) (-r|--require|--import|--input-type|--loader|--conditions|-C)|php[0-9.]* -[cdz]|osascript -[lis])$/;

/** True for programs that interpret code (not the shells, which are parsed instead). */
export function isInterpreter(name: string): boolean {
  return interpreters.some(([pattern]) => pattern.test(name));
}

/** What an interpreter invocation runs: inline code, a script file, or standard input. */
export type CodeSource =
  | { kind: "inline"; code: Word }
  | { kind: "file" }
  | { kind: "stdin" }
  | { kind: "module" };

/** Works out where an interpreter takes its code from. */
export function codeSource(name: string, args: Word[]): CodeSource {
  const entry = interpreters.find(([pattern]) => pattern.test(name));
  const inlineOptions = entry?.[1] ?? [];
  if (/awk$/.test(name)) {
    for (let index = 0; index < args.length; index++) {
      const text = args[index].text;
      if (text === "-f" || text.startsWith("--file")) {
        const file = text.includes("=") ? text.split("=")[1] : args[index + 1]?.text;
        return /^(-|\/dev\/stdin|\/dev\/fd\/0)$/.test(file ?? "")
          ? { kind: "stdin" }
          : { kind: "file" };
      }
      if (["-F", "-v"].includes(text)) {
        index++;
        continue;
      }
      if (text.startsWith("-")) continue;
      return { kind: "inline", code: args[index] };
    }
    return { kind: "stdin" };
  }
  for (let index = 0; index < args.length; index++) {
    const text = args[index].text;
    const lower = text.toLowerCase();
    const inline = inlineOptions.find((option) => lower === option || lower.startsWith(option));
    if (inline) {
      if (lower === inline) {
        return args[index + 1] ? { kind: "inline", code: args[index + 1] } : { kind: "stdin" };
      }
      const rest = text.slice(inline.length).replace(/^=/, "");
      return { kind: "inline", code: { ...args[index], text: rest } };
    }
    if (/^-[a-zA-Z]*c$/.test(text) && inlineOptions.includes("-c")) {
      return args[index + 1] ? { kind: "inline", code: args[index + 1] } : { kind: "stdin" };
    }
    if (text === "-m") return { kind: "module" };
    if (text === "-" || text === "/dev/stdin") return { kind: "stdin" };
    if (valuedOptions.test(`${name} ${text}`)) {
      index++;
      continue;
    }
    if (text.startsWith("-")) continue;
    return { kind: "file" };
  }
  return { kind: "stdin" };
}

const destructive =
  /\b(rmtree|remove_tree|rm_rf|rm_r|rmSync|rmdirSync|unlinkSync|unlink|rmdir|removedirs|os\.remove|os\.rename|os\.replace|renames|shutil\.move|File\.delete|Files\.delete|FileUtils\.\w+|fs\.rm\w*|fs\.promises\.rm|Dir\.delete|Deno\.remove\w*|truncate|shred|chmod|chown|lchown|killpg|kill|process\.kill|Deno\.kill)\b/;
const runsPrograms =
  /\b(system|popen\w*|subprocess|spawn\w*|exec[lv]p?e?|execSync|execFile\w*|child_process|fork|Popen|check_output|check_call|Deno\.Command|Deno\.run|IO\.popen|Open3|shell_exec|passthru|proc_open|pcntl_exec|getRuntime|do shell script|os\.exec\w*|io\.popen|getline|run script|System Events|keystroke)\b|`|%x[({[]|\bqx\b|open\s*\(?[^)]*["']\s*\|/;
const network =
  /\b(socket|Socket|fsockopen|pty|TCPSocket|UDPSocket|IO::Socket|Net::|createConnection|net\.connect|Deno\.connect|Deno\.listen|\/inet\/tcp|\/inet\/udp)\b/;
const obfuscation =
  /(?<!re\.)\bcompile\s*\(|\b(eval|exec|__import__|importlib|getattr|setattr|globals|__builtins__|b64decode|base64|atob|fromCharCode|unhexlify|fromhex|marshal|pickle|codecs|Function|constructor|require\s*\(\s*[^'"\s)])\b|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\[0-7]{3}|\[\s*["'`][^\]]*["'`]\s*\+/;

/** Checks interpreter code for deleting, running programs, sockets or hidden code. */
export function checkCode(program: string, code: string): CodeFinding[] {
  const findings: CodeFinding[] = [];
  const what = `${program} inline code`;
  const describe = (pattern: RegExp) => pattern.exec(code)?.[0].trim().slice(0, 30);
  if (network.test(code)) {
    findings.push({
      severity: "dangerous",
      reason: `${what} opens raw network sockets or terminals (${describe(network)})`,
    });
  }
  if (runsPrograms.test(code)) {
    findings.push({
      severity: "dangerous",
      reason: `${what} runs other programs (${describe(runsPrograms)}), which cannot be checked`,
    });
  }
  if (obfuscation.test(code)) {
    findings.push({
      severity: "dangerous",
      reason: `${what} builds or decodes code at run time (${describe(obfuscation)})`,
    });
  }
  const awkCode = code.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/awk$/.test(program) && /\bprintf?\b[^;}]*>/.test(awkCode)) {
    findings.push({ severity: "destructive", reason: `${what} writes files` });
  }
  if (/awk$/.test(program) && /\bprintf?\b[^;}]*\|/.test(awkCode.replace(/\|\|/g, ""))) {
    findings.push({ severity: "dangerous", reason: `${what} pipes output into a command` });
  }
  if (program === "osascript" && /\b(delete|trash|erase|empty)\b/i.test(code)) {
    findings.push({
      severity: "destructive",
      reason: `${what} deletes items (${describe(/\b(delete|trash|erase|empty)\b/i)})`,
    });
  }
  if (destructive.test(code)) {
    findings.push({
      severity: "destructive",
      reason: `${what} deletes or changes files or processes (${describe(destructive)})`,
    });
  }
  return findings;
}
