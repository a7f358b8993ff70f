/**
 * Commands hidden in other programs' options and scripts: tar --to-command, rsync -e, git -c
 * core.pager=…, man -P, zip -TT, sed's `e` command, vim -c '!…', sqlite3 .shell, make -f -, and
 * environment variables that name a program (PAGER, EDITOR, GIT_SSH_COMMAND …).
 */
import type { Finding } from "./program_rules.ts";
import type { Word } from "./shell_lexer.ts";

/** What a program would run besides itself, and files its script writes. */
export interface Embedded {
  findings: Finding[];
  /** Command lines the program runs (checked like the main line). */
  scripts: string[];
  /** Files written by the program's own script (sed `w file`). */
  writes: string[];
}

/** Variables whose value is a command some program runs. */
export const commandVariables =
  /^(PAGER|MANPAGER|GIT_PAGER|SYSTEMD_PAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_PROXY_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|RSYNC_RSH|TAR_OPTIONS|BROWSER)$/;

const gitCommandKeys =
  /^(core\.(pager|editor|sshcommand|askpass|fsmonitor|hookspath|gitproxy)|sequence\.editor|pager\.\w+|alias\.[\w-]+|diff\.[\w-]+\.(textconv|command)|filter\.[\w-]+\.(clean|smudge|process)|credential\.helper|gpg\.(program|\w+\.program)|merge\.[\w-]+\.driver|uploadpack\.packobjectshook|protocol\.ext\.allow|remote\.[\w-]+\.(uploadpack|receivepack))$/i;

/** The option value of `-x value`, `-xvalue`, `--long value` or `--long=value` at `index`. */
function optionValue(
  args: Word[],
  index: number,
  short: string[],
  long: string[],
): { value: Word; next: number } | undefined {
  const text = args[index].text;
  for (const option of long) {
    if (text === option && args[index + 1]) return { value: args[index + 1], next: index + 2 };
    if (text.startsWith(`${option}=`)) {
      return { value: { ...args[index], text: text.slice(option.length + 1) }, next: index + 1 };
    }
  }
  for (const option of short) {
    if (text === option && args[index + 1]) return { value: args[index + 1], next: index + 2 };
    if (text.startsWith(option) && text.length > option.length && option.length === 2) {
      return { value: { ...args[index], text: text.slice(2) }, next: index + 1 };
    }
  }
  return undefined;
}

/** Commands a program runs from its options or script (empty for most programs). */
export function embeddedCommands(name: string, args: Word[]): Embedded {
  const result: Embedded = { findings: [], scripts: [], writes: [] };
  const dangerous = (reason: string) => result.findings.push({ severity: "dangerous", reason });
  const script = (word: Word, what: string) => {
    if (word.dynamic) dangerous(`${what} runs a command built at run time (${word.text})`);
    else result.scripts.push(word.text);
  };
  const scan = (short: string[], long: string[], what: string) => {
    for (let index = 0; index < args.length; index++) {
      const found = optionValue(args, index, short, long);
      if (found) script(found.value, what);
    }
  };
  const texts = args.map((arg) => arg.text);
  if (name === "tar" || name === "gtar" || name === "bsdtar") {
    scan(["-I", "-F"], [
      "--to-command",
      "--use-compress-program",
      "--info-script",
      "--new-volume-script",
    ], `${name} option`);
    for (const text of texts) {
      const action = /^--checkpoint-action=(exec|shell)=(.*)$/s.exec(text);
      if (action) result.scripts.push(action[2]);
    }
  }
  if (name === "rsync") scan(["-e"], ["--rsh"], "rsync -e");
  if (name === "man") scan(["-P", "-H"], ["--pager", "--html"], "man -P");
  if (name === "zip") {
    scan(["-TT"], ["--unzip-command"], "zip -TT");
    if (texts.some((text) => text === "--move" || /^-[a-zA-Z]*m[a-zA-Z]*$/.test(text))) {
      result.findings.push({ severity: "destructive", reason: "zip -m deletes the originals" });
    }
  }
  if (name === "git") gitOptions(args, script, dangerous);
  if (name === "sed" || name === "gsed") sedScripts(args, result, dangerous);
  if (/^(vi|vim|nvim|ex|view|gvim|rvim)$/.test(name)) {
    for (let index = 0; index < args.length; index++) {
      const found = optionValue(args, index, ["-c"], ["--cmd"]) ??
        (args[index].text.startsWith("+")
          ? { value: { ...args[index], text: args[index].text.slice(1) } }
          : undefined);
      if (
        found &&
        /!|\bsystem\s*\(|\b(sh|shell|terminal|py\w*|lua|perl|ruby|call)\b/.test(found.value.text)
      ) {
        dangerous(`${name} runs a shell or script command (${found.value.text.slice(0, 40)})`);
      }
    }
  }
  if (/^(less|more|most)$/.test(name) && texts.some((text) => /^\+.*[!|]/.test(text))) {
    dangerous(`${name} runs a shell command from a + option`);
  }
  if (name === "sqlite3") {
    for (const text of texts) {
      for (const match of text.matchAll(/(?:^|[\n;])\s*\.(?:shell|system)\s+([^\n]*)/g)) {
        result.scripts.push(match[1]);
      }
    }
  }
  if (/^(gdb|lldb)$/.test(name)) {
    for (let index = 0; index < args.length; index++) {
      const found = optionValue(args, index, ["-ex", "-o"], ["--eval-command", "--one-line"]);
      if (found && /^\s*(shell|!|python|pipe|\||platform\s+shell|script)/.test(found.value.text)) {
        dangerous(`${name} runs a shell or script command`);
      }
    }
  }
  if (/^(make|gmake)$/.test(name)) {
    for (let index = 0; index < args.length; index++) {
      const found = optionValue(args, index, ["-f"], ["--file", "--makefile"]);
      if (
        found && /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/self\/fd\/\d+)$/.test(found.value.text)
      ) {
        dangerous(`${name} reads a makefile from standard input, which cannot be checked`);
      }
      if (found?.value.processSubstitution) dangerous(`${name} reads a generated makefile`);
      if (/^(-E|--eval)/.test(args[index].text)) dangerous(`${name} --eval runs generated rules`);
    }
  }
  return result;
}

function gitOptions(
  args: Word[],
  script: (word: Word, what: string) => void,
  dangerous: (reason: string) => void,
): void {
  for (let index = 0; index < args.length; index++) {
    const text = args[index].text;
    if (text === "--config-env" || text.startsWith("--config-env=")) {
      dangerous("git --config-env takes settings from the environment, which cannot be checked");
    }
    const found = optionValue(args, index, ["-c"], []);
    if (!found) continue;
    const [key, ...rest] = found.value.text.split("=");
    if (!gitCommandKeys.test(key)) continue;
    const value = rest.join("=");
    if (/^(core\.hookspath|protocol\.ext\.allow)$/i.test(key)) {
      dangerous(`git -c ${key} makes git run programs from elsewhere`);
    } else if (value) {
      script({ ...found.value, text: value.replace(/^!/, "") }, `git -c ${key}`);
    }
  }
}

/** GNU sed's `e` command and `s///e` flag run shell commands; `w file` writes files. */
function sedScripts(args: Word[], result: Embedded, dangerous: (reason: string) => void): void {
  const scripts: string[] = [];
  let sawScript = false;
  for (let index = 0; index < args.length; index++) {
    const text = args[index].text;
    if ((text === "-e" || text === "--expression") && args[index + 1]) {
      scripts.push(args[++index].text);
      sawScript = true;
    } else if (text.startsWith("--expression=")) {
      scripts.push(text.slice(13));
      sawScript = true;
    } else if (/^-[a-zA-Z]*e./.test(text) && !text.startsWith("--")) {
      scripts.push(text.slice(text.indexOf("e") + 1));
      sawScript = true;
    } else if (/^-[a-zA-Z]*f$/.test(text) || text.startsWith("--file")) {
      sawScript = true;
      index++;
    } else if (!text.startsWith("-") && !sawScript) {
      scripts.push(text);
      sawScript = true;
    }
  }
  const address = String.raw`(?:\d+|\$|\/(?:[^\/\\]|\\.)*\/)`;
  const prefix = String.raw`(?:^|[;{}\n])\s*(?:${address}(?:\s*,\s*${address})?)?\s*!?\s*`;
  const execute = new RegExp(`${prefix}e(?:\\s|;|}|$)`);
  const write = new RegExp(`${prefix}[wW]\\s+(\\S+)`, "g");
  const substitute =
    /s([^\w\s\\])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1([gpiImM0-9e]*)(?:w\s*(\S+))?/g;
  for (const code of scripts) {
    let flagged = execute.test(code);
    for (const match of code.matchAll(substitute)) {
      if (match[2].includes("e")) flagged = true;
      if (match[3]) result.writes.push(match[3]);
    }
    if (flagged) dangerous("sed e runs shell commands");
    for (const match of code.matchAll(write)) result.writes.push(match[1]);
  }
}
