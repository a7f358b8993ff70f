import assert from "node:assert/strict";
import { decideApproval, isPlainlyReadOnly } from "../../../src/tools/exec/approval_policy.ts";

Deno.test("isPlainlyReadOnly(): read-only programs and pipelines yes; writes, substitutions, jobs no", () => {
  for (
    const command of [
      "ls -la ~/Documents",
      "cat notes.txt | grep -i todo | wc -l",
      "find . -name '*.pdf' 2>/dev/null",
      "git log --oneline -5 && git status",
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
