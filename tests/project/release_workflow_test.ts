/**
 * The release workflow (.github/workflows/release.yml) cannot run here (no GitHub, no runtime
 * downloads for `deno compile`), so its commands are checked against what they must match and run
 * as far as they can: the README's test command, `deno task compile`'s targets (dry run), the
 * sums step, and install.sh's asset names.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { targets } from "../../scripts/compile.ts";
import { fromFileUrl } from "./file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { target?: string[]; include?: Array<Record<string, string>> } };
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(
  Deno.readTextFileSync(join(root, ".github/workflows/release.yml")),
) as Workflow;
const readme = Deno.readTextFileSync(join(root, "README.md"));

/** The README's test command: the command of the "Two commands" block whose comment names tests. */
function readmeTestCommand(): string {
  const block = readme.split("## Two commands")[1].split("```sh")[1].split("```")[0];
  const line = block.split("\n").find((text) => /#.*\btests?\b/.test(text));
  assert.ok(line, "the README's two commands include the test command");
  return line.split("#")[0].trim();
}

/** `npx -y deno@2.9.6` — how the README runs Deno, which the workflow must share. */
function denoPrefix(command: string): string {
  return command.split(" task ")[0];
}

function runs(job: Job): string[] {
  return job.steps.flatMap((step) => step.run ? [step.run.trim()] : []);
}

Deno.test("a version tag starts the release; the publish job alone may write", () => {
  assert.deepEqual(workflow.on.push.tags, ["v*"]);
  assert.equal(workflow.permissions.contents, "read");
  assert.equal(workflow.jobs.publish.permissions?.contents, "write");
  assert.match(workflow.jobs.publish.if ?? "", /refs\/tags\/v/);
  for (const [name, job] of Object.entries(workflow.jobs)) {
    if (name !== "publish") assert.equal(job.permissions, undefined, name);
  }
});

Deno.test("the release runs the README's test command before anything is built", () => {
  assert.ok(runs(workflow.jobs.test).includes(readmeTestCommand()), readmeTestCommand());
  assert.equal(workflow.jobs.build.needs, "test");
  assert.equal(workflow.jobs.smoke.needs, "build");
  assert.equal(workflow.jobs.publish.needs, "smoke");
});

Deno.test("the build compiles exactly deno task compile's targets, with its script", () => {
  const build = workflow.jobs.build;
  assert.deepEqual(build.strategy?.matrix.target, [...targets]);
  const prefix = denoPrefix(readmeTestCommand());
  assert.ok(
    runs(build).includes(`${prefix} task compile \${{ matrix.target }}`),
    `the build runs "${prefix} task compile <target>"`,
  );
  const upload = build.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
  assert.equal(upload?.with?.path, "dist/radar-${{ matrix.target }}", "compile.ts's --output");
  const smoked = workflow.jobs.smoke.strategy?.matrix.include?.map((entry) => entry.target);
  assert.deepEqual(smoked?.toSorted(), [...targets].sort(), "each binary starts on its platform");
});

Deno.test("deno task compile runs for every target of the workflow (dry run: no runtime download)", async () => {
  for (const target of workflow.jobs.build.strategy!.matrix.target!) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "compile", "--dry-run", target],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const printed = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, printed);
    assert.match(printed, new RegExp(`--target ${target} --output dist/radar-${target} main\\.ts`));
  }
});

Deno.test("the sums step writes SHA256SUMS that sha256sum -c accepts, for every asset published", async () => {
  const publish = workflow.jobs.publish;
  const sums = publish.steps.find((step) => step.name === "SHA-256 sums")!;
  assert.equal(sums["working-directory"], "dist");
  const folder = Deno.makeTempDirSync({ prefix: "radar-release-" });
  try {
    const dist = join(folder, "dist");
    Deno.mkdirSync(dist);
    Deno.copyFileSync(join(root, "install.sh"), join(folder, "install.sh"));
    for (const target of targets) Deno.writeTextFileSync(join(dist, `radar-${target}`), target);
    const script = await new Deno.Command("bash", {
      args: ["-eo", "pipefail", "-c", sums.run!],
      cwd: dist,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(script.code, 0, new TextDecoder().decode(script.stderr));
    const listed = Deno.readTextFileSync(join(dist, "SHA256SUMS")).trim().split("\n")
      .map((line) => line.split(/\s+\*?/)[1]).sort();
    assert.deepEqual(listed, [...targets.map((target) => `radar-${target}`), "install.sh"].sort());
    const check = await new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: dist })
      .output();
    assert.equal(check.code, 0);
    const publishing = runs(publish).find((run) => run.startsWith("gh release create"))!;
    for (const asset of ["dist/radar-*", "dist/install.sh", "dist/SHA256SUMS"]) {
      assert.ok(publishing.includes(asset), asset);
    }
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("install.sh knows exactly the targets the workflow publishes", () => {
  const script = Deno.readTextFileSync(join(root, "install.sh"));
  const named = [...script.matchAll(/echo "([a-z0-9_]+-[a-z0-9_-]+)" ;;/g)].map((match) =>
    match[1]
  );
  assert.deepEqual(named.toSorted(), [...targets].sort());
});
