/** Rules for individual programs: what makes rm, dd, chmod, kill, git … destructive or dangerous. */
import { killFindings, otherFindings } from "./process_rules.ts";
import type { Word } from "./shell_lexer.ts";

/** A problem found in a command. */
export interface Finding {
  /** destructive: may be confirmed by the user; dangerous: refused outside allow_all. */
  severity: "destructive" | "dangerous";
  reason: string;
}

/** What program rules need to know about the machine. */
export interface RuleContext {
  /** Resolves a word to an absolute path, or undefined when it is computed at run time. */
  resolve(word: Word): string | undefined;
  home: string;
  /** Process ids that must not be signalled (Radar and its parent). */
  protectedPids: readonly number[];
}

const escalation = new Set([
  "sudo",
  "su",
  "doas",
  "pkexec",
  "run0",
  "chroot",
  "sg",
  "newgrp",
  "setcap",
  "visudo",
  "passwd",
  "chpasswd",
  "usermod",
  "useradd",
  "userdel",
  "adduser",
  "deluser",
]);
const diskTools =
  /^(dd|mkfs(\.\w+)?|mke2fs|mkswap|mkdosfs|mkntfs|newfs\w*|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|wipefs|shred|blkdiscard|diskutil|format|zpool|lvremove|vgremove|pvremove|cryptsetup|swapoff|hdparm)$/;
const power = /^(shutdown|reboot|halt|poweroff|init|telinit)$/;
const scheduling = /^(crontab|at|batch|launchctl|systemd-run)$/;
const killers = /^(kill|pkill|killall|skill|xkill)$/;
const tempPrefix =
  /^\/(tmp|var\/tmp|private\/tmp|private\/var\/folders\/[^/]+\/[^/]+\/T|var\/folders\/[^/]+\/[^/]+\/T)\/[^/]/;
const systemFolders =
  /^\/(bin|boot|dev|etc|home|lib\w*|opt|proc|root|sbin|srv|sys|usr|var|Applications|Library|System|Users|Volumes|private)?\/?$/;

/** Splits arguments into options and operands (operands after `--` are never options). */
export function splitArguments(args: Word[]): { options: string[]; operands: Word[] } {
  const options: string[] = [];
  const operands: Word[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg.text === "--") ended = true;
    else if (!ended && arg.text.startsWith("-") && arg.text !== "-") options.push(arg.text);
    else operands.push(arg);
  }
  return { options, operands };
}

function hasShortFlag(options: string[], letters: string, long: string[]): boolean {
  return options.some((option) =>
    long.includes(option.split("=")[0]) ||
    (!option.startsWith("--") && [...option.slice(1)].some((letter) => letters.includes(letter)))
  );
}

/** True for a path inside a temporary folder (never the temp folder itself, nor under home). */
export function isTemporary(path: string | undefined, home: string): boolean {
  return path !== undefined && tempPrefix.test(path) && !path.split("/").includes("..") &&
    path !== home && !path.startsWith(`${home}/`) && !home.startsWith(`${path}/`);
}

function isCritical(path: string | undefined, context: RuleContext): boolean {
  if (path === undefined) return true;
  const trimmed = path.replace(/\/+$/, "") || "/";
  return systemFolders.test(trimmed) || trimmed === context.home ||
    context.home.startsWith(`${trimmed}/`);
}

/** Applies the program rules to one command (name already unwrapped and lower-cased). */
export function programFindings(name: string, args: Word[], context: RuleContext): Finding[] {
  const found: Finding[] = [];
  const add = (severity: Finding["severity"], reason: string) => found.push({ severity, reason });
  const { options, operands } = splitArguments(args);
  const texts = args.map((arg) => arg.text);
  if (escalation.has(name)) add("dangerous", `${name} changes users or privileges`);
  if (diskTools.test(name)) add("destructive", `${name} can destroy disks or data`);
  if (power.test(name)) add("dangerous", `${name} stops or restarts the machine`);
  if (name === "crontab" && !(texts.length === 1 && texts[0] === "-l")) {
    add("dangerous", "crontab edits scheduled jobs");
  } else if (scheduling.test(name) && name !== "crontab") {
    const verb = texts.find((text) => !text.startsWith("-")) ?? "";
    if (name !== "launchctl" || /^(load|bootstrap|submit|enable|kickstart|asuser)$/.test(verb)) {
      add("dangerous", `${name} schedules programs to run later`);
    } else if (
      !/^(list|print\S*|help|version|blame|dumpstate|procinfo|error|managerpid)$/.test(verb)
    ) {
      add("destructive", `launchctl ${verb || "(no verb)"} changes running services`);
    }
  }
  if (
    /^(systemctl|launchctl|service|sv|rc-service)$/.test(name) &&
    texts.some((text) => /radar/i.test(text)) &&
    !texts.some((text) => /^(status|show|cat|list\S*|print\S*|is-\w+|help)$/.test(text))
  ) {
    add("dangerous", `${name} would stop or change Radar itself`);
  }
  if (name === "systemctl") {
    const verb = operands.find((word) => !word.text.startsWith("-"))?.text ?? "";
    if (/^(poweroff|reboot|halt|suspend|hibernate|kexec|rescue|emergency)$/.test(verb)) {
      add("dangerous", `systemctl ${verb} stops the machine`);
    } else if (/^(enable|link|edit|set-property|preset|add-wants|revert)$/.test(verb)) {
      add("dangerous", `systemctl ${verb} installs or changes services`);
    } else if (!/^(status|show|cat|list-\w+|is-\w+|help)$/.test(verb)) {
      add("destructive", `systemctl ${verb || "(no verb)"} changes running services`);
    }
  }
  if (name === "rm") {
    const recursive = hasShortFlag(options, "rR", ["--recursive"]);
    const force = hasShortFlag(options, "f", ["--force"]);
    for (const operand of operands) {
      const path = context.resolve(operand);
      if ((recursive || force) && !isTemporary(path, context.home)) {
        add("destructive", `rm ${recursive ? "-r" : "-f"} on ${operand.text} (not a temp path)`);
      } else if (isCritical(path, context)) {
        add("destructive", `rm on ${operand.text}`);
      }
    }
  }
  if (name === "find") {
    const named = args.filter((arg, index) =>
      !arg.text.startsWith("-") && index < firstExpression(args)
    );
    const roots = named.length ? named : [literalWord(".")];
    if (
      texts.includes("-delete") &&
      !roots.every((root) => isTemporary(context.resolve(root), context.home))
    ) {
      add("destructive", "find -delete outside temp folders");
    }
  }
  if (name === "chmod") {
    const mode = operands[0]?.text ?? "";
    const everyoneWrites = /^0*[0-7]?[0-7][0-7][2367]$/.test(mode) ||
      /(^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/.test(mode) || /^[+=][rwxXst]*w/.test(mode);
    if (everyoneWrites) add("destructive", `chmod ${mode} makes files writable by everyone`);
    if (/^0*[2-7][0-7]{3}$/.test(mode) || /[+=][rwxX]*s/.test(mode)) {
      add("dangerous", `chmod ${mode} sets setuid/setgid bits`);
    }
    if (
      hasShortFlag(options, "R", ["--recursive"]) &&
      operands.slice(1).some((word) => isCritical(context.resolve(word), context))
    ) {
      add("destructive", "chmod -R on a home or system folder");
    } else if (operands.slice(1).some((word) => isCritical(context.resolve(word), context))) {
      add("destructive", "chmod on a home or system folder");
    }
  }
  if (name === "setfacl" || name === "chattr" || name === "chflags") {
    add("destructive", `${name} changes file permissions or attributes`);
  }
  if (name === "unlink" && operands.some((word) => isCritical(context.resolve(word), context))) {
    add("destructive", "unlink of a home or system folder");
  }
  if (name === "chown" || name === "chgrp") {
    if (operands.slice(1).some((word) => isCritical(context.resolve(word), context))) {
      add("destructive", `${name} on a home or system folder`);
    } else if (hasShortFlag(options, "R", ["--recursive"])) {
      const outside = operands.slice(1).some((word) =>
        !isTemporary(context.resolve(word), context.home)
      );
      if (outside) add("destructive", `${name} -R outside temp folders`);
    }
  }
  if (name === "mv" && operands.some((word) => isCritical(context.resolve(word), context))) {
    add("destructive", "mv of a home or system folder");
  }
  if ((name === "mv" || name === "cp") && operands.at(-1)?.text === "/dev/null") {
    add("destructive", `${name} onto /dev/null`);
  }
  if (
    /^(cp|install|rsync|mv)$/.test(name) && operands.length > 1 &&
    operands.slice(0, -1).some((word) => /^\/dev\/(null|zero|u?random)$/.test(word.text))
  ) {
    add("destructive", `${name} from ${operands[0].text} empties or overwrites files`);
  }
  if (
    name === "rsync" &&
    options.some((option) => option.startsWith("--delete") || option === "--remove-source-files")
  ) {
    add("destructive", "rsync --delete removes files");
  }
  if (name === "truncate") add("destructive", "truncate empties files");
  found.push(...otherFindings(name, texts, options));
  if (name === "git") found.push(...gitFindings(texts));
  if (killers.test(name)) found.push(...killFindings(name, args, context));
  if (/^(nc|ncat|netcat|nc\.\w+|socat|telnet)$/.test(name)) {
    if (
      texts.some((text) =>
        /^(-e|-c|--exec|--sh-exec|--lua-exec)$/.test(text) ||
        /^-\w*[ec]$/.test(text) && name !== "socat"
      )
    ) {
      add("dangerous", `${name} with a program attached (reverse shell pattern)`);
    }
    if (name === "socat" && texts.some((text) => /(^|[,:])(exec|system):/i.test(text))) {
      add("dangerous", "socat running a program (reverse shell pattern)");
    }
  }
  return found;
}

function firstExpression(args: Word[]): number {
  const index = args.findIndex((arg, position) =>
    position > 0 && /^[-(!]/.test(arg.text) && !/^-[HLP]$/.test(arg.text)
  );
  return index === -1 ? args.length : index;
}

function gitFindings(texts: string[]): Finding[] {
  let start = 0;
  while (start < texts.length && texts[start].startsWith("-")) {
    const valued = /^(-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/;
    start += valued.test(texts[start]) ? 2 : 1;
  }
  const verb = texts[start] ?? "";
  const rest = texts.slice(start + 1);
  const discards = gitDiscards(verb, rest);
  if (discards) return [{ severity: "destructive", reason: discards }];
  if (verb === "clean" && rest.some((text) => /^-\w*f/.test(text) || text === "--force")) {
    return [{ severity: "destructive", reason: "git clean -f deletes untracked files" }];
  }
  if (verb === "reset" && rest.includes("--hard")) {
    return [{ severity: "destructive", reason: "git reset --hard discards changes" }];
  }
  if (verb === "push" && rest.some((text) => /^(-f|--force.*|\+.*)$/.test(text))) {
    return [{ severity: "destructive", reason: "git push --force rewrites remote history" }];
  }
  if (
    verb === "config" &&
    rest.some((text) => /(sshcommand|hookspath|fsmonitor|pager|editor|alias\.)/i.test(text))
  ) {
    return [{ severity: "dangerous", reason: "git config that makes git run programs" }];
  }
  return [];
}

/** Git verbs that throw away work (uncommitted changes, branches, stashes, history). */
function gitDiscards(verb: string, rest: string[]): string | undefined {
  const has = (pattern: RegExp) => rest.some((text) => pattern.test(text));
  if (verb === "checkout" && has(/^(--|\.|-f|--force|-\w*f\w*)$/)) {
    return "git checkout of paths or --force discards uncommitted changes";
  }
  if (verb === "restore" && !(has(/^(-S|--staged)$/) && !has(/^(-W|--worktree)$/))) {
    return "git restore discards uncommitted changes";
  }
  if (verb === "stash" && has(/^(drop|clear)$/)) return "git stash drop/clear deletes stashes";
  if (verb === "branch" && has(/^(-D|--delete|-d|-\w*D\w*)$/)) {
    return "git branch -D deletes branches";
  }
  if (verb === "push" && has(/^(--mirror|--delete|-d|--prune|:.*)$/)) {
    return "git push that deletes remote branches";
  }
  if (/^(filter-branch|filter-repo|replace)$/.test(verb)) return `git ${verb} rewrites history`;
  if (verb === "reflog" && has(/^(expire|delete)$/)) return "git reflog expire drops history";
  if (verb === "gc" && has(/^--prune/)) return "git gc --prune deletes unreachable commits";
  if (verb === "update-ref" && has(/^-d$/)) return "git update-ref -d deletes a ref";
  return undefined;
}

/** A word written literally in the command. */
export function literalWord(text: string): Word {
  return {
    text,
    dynamic: false,
    glob: false,
    quoted: false,
    substitutions: [],
    processSubstitution: false,
  };
}
