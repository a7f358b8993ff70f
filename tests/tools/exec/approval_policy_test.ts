import assert from "node:assert/strict";
import { decideApproval, isPlainlyReadOnly } from "../../../src/tools/exec/approval_policy.ts";

Deno.test("isPlainlyReadOnly(): read-only programs and pipelines yes; writes, substitutions, jobs no", () => {
  for (
    const command of [
      "ls -la ~/Documents",
      "cat notes.txt | grep -i todo | wc -l",
      "grep -rn TODO . 2>/dev/null",
      "wc -l < notes.txt",
      "x=1; echo $x",
      "du -sh * ; df -h",
    ]
  ) assert.equal(isPlainlyReadOnly(command), true, command);
  for (
    const command of [
      "rm -rf ~/old",
      "echo hi > file",
      "cat a >> b",
      "find . -delete",
      "find . -exec rm {} ;",
      "git commit -m x",
      "git -c core.fsmonitor=x status",
      "echo $(rm x)",
      "echo `rm x`",
      "sleep 100 &",
      "f(){ f|f& };f",
      "ls\nrm x",
      "python3 -c 'print(1)'",
      "xargs rm",
      "cat <(ls)",
    ]
  ) assert.equal(isPlainlyReadOnly(command), false, command);
});

Deno.test("isPlainlyReadOnly(): no program that can write in some way counts as read-only", () => {
  for (
    const command of [
      "xxd -r dump.hex out.bin", // -r, and a second file argument, write a file
      "xxd notes.txt out.hex",
      "file -C -m magic", // compiles magic.mgc
      "find . -name '*.pdf'", // -fprint, -delete, -exec: a list of bad options is no rule
      "git log --oneline -5", // a repository's config runs programs (core.fsmonitor …)
      "git status",
      "rg --pre ./convert pattern", // runs a preprocessor
      "date -s 2030-01-01", // sets the clock
      "hostname evil", // sets the host name
      "LD_PRELOAD=./x.so ls", // an assignment changes what the program does
      "PAGER=./x cat notes.txt",
    ]
  ) assert.equal(isPlainlyReadOnly(command), false, command);
});

Deno.test("decideApproval(): sandboxed commands run; the user's roots need a yes; unattended sees them read-only", () => {
  const base = { mode: "block_dangerous" as const, sandboxed: true, interactive: false };
  assert.deepEqual(decideApproval({ ...base, command: "rm -rf x", userRoots: [] }), {
    action: "run",
    writeRoots: false,
  });
  const unattended = decideApproval({ ...base, command: "rm -rf x", userRoots: ["~/work"] });
  assert.equal(unattended.action, "run");
  assert.equal(unattended.action === "run" && unattended.writeRoots, false);
  const chat = decideApproval({
    ...base,
    interactive: true,
    command: "rm -rf x",
    userRoots: ["~/work"],
  });
  assert.equal(chat.action, "ask");
  assert.deepEqual(
    decideApproval({ ...base, interactive: true, command: "ls", userRoots: ["~/work"] }),
    { action: "run", writeRoots: false },
  );
  assert.deepEqual(
    decideApproval({ ...base, mode: "allow_all", command: "rm x", userRoots: ["~/work"] }),
    { action: "run", writeRoots: true },
  );
  assert.equal(
    decideApproval({ ...base, mode: "safe_only", command: "rm x", userRoots: [] }).action,
    "refuse",
  );
  assert.equal(
    decideApproval({ ...base, sandboxed: false, command: "ls", userRoots: [] }).action,
    "refuse",
  );
  assert.equal(
    decideApproval({ ...base, sandboxed: false, interactive: true, command: "ls", userRoots: [] })
      .action,
    "ask",
  );
});
