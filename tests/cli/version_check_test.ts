/**
 * `radar version --check` against a releases API this test serves on 127.0.0.1 (the GitHub
 * "latest release" shape): newer, same, older, and the failures: offline, no release yet, a
 * server error, an answer that is no release. One line each; exit 1 when it cannot tell.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { radarVersion } from "../../src/version.ts";
import { compareReleaseVersions, parseReleaseVersion } from "../../src/cli/commands/version.ts";

/** Answers GET /repos/o/r/releases/latest with `status` and `body`. */
function releasesApi(status: number, body: string) {
  const seen: Array<{ path: string; accept: string | null }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push({ path: new URL(request.url).pathname, accept: request.headers.get("accept") });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/repos/o/r/releases/latest`,
    seen,
    server,
  };
}

async function check(url: string): Promise<{ code: number; out: string; err: string }> {
  let result = { code: -1, out: "", err: "" };
  await withCliHome(async (env, home) => {
    const io = memoryIo({ ...env, RADAR_RELEASES_URL: url }, { cwd: home });
    const code = await runCli(["version", "--check"], io);
    result = { code, out: io.out.join(""), err: io.err.join("") };
  });
  return result;
}

const release = (tag: string) =>
  JSON.stringify({
    tag_name: tag,
    html_url: `https://github.com/o/r/releases/tag/${tag}`,
    assets: [{ name: "radar-x86_64-unknown-linux-gnu" }],
    draft: false,
    prerelease: false,
  });

Deno.test("radar version --check names a newer release, its page and how to update", async () => {
  const api = releasesApi(200, release("v99.0.0"));
  try {
    const run = await check(api.url);
    assert.equal(run.code, 0, run.err);
    assert.equal(
      run.out,
      `Radar 99.0.0 is out (this is ${radarVersion}): https://github.com/o/r/releases/tag/v99.0.0; ` +
        "update: curl -fsSL https://github.com/radar-assistant/radar/releases/latest/download/install.sh | sh\n",
    );
    assert.deepEqual(api.seen, [{
      path: "/repos/o/r/releases/latest",
      accept: "application/vnd.github+json",
    }]);
  } finally {
    await api.server.shutdown();
  }
});

Deno.test("radar version --check says when this is the latest (or newer)", async () => {
  for (
    const [tag, expected] of [
      [`v${radarVersion}`, `Radar ${radarVersion} is the latest release.\n`],
      ["v0.0.1", `Radar ${radarVersion} is newer than the latest release (v0.0.1).\n`],
    ]
  ) {
    const api = releasesApi(200, release(tag));
    try {
      const run = await check(api.url);
      assert.deepEqual(run, { code: 0, out: expected, err: "" });
    } finally {
      await api.server.shutdown();
    }
  }
});

Deno.test("radar version --check offline or against a bad answer: one line, exit 1", async () => {
  const offline = releasesApi(200, "{}");
  await offline.server.shutdown();
  const cases: Array<[number, string, RegExp]> = [
    [404, '{"message":"Not Found"}', /no release has been published yet \(404\)/],
    [403, '{"message":"API rate limit exceeded"}', /the server answered 403/],
    [200, "<html>captive portal</html>", /the answer is not a release/],
    [200, JSON.stringify({ tag_name: "nightly" }), /tag "nightly" is not a version/],
  ];
  const run = await check(offline.url);
  assert.equal(run.code, 1);
  assert.match(
    run.err,
    /^radar: Cannot check for a newer Radar at .*: unreachable \(offline\?\)\n$/,
  );
  assert.equal(run.out, "");
  for (const [status, body, expected] of cases) {
    const api = releasesApi(status, body);
    try {
      const result = await check(api.url);
      assert.equal(result.code, 1, body);
      assert.match(result.err, expected);
      assert.equal(result.err.split("\n").length, 2, "one line");
    } finally {
      await api.server.shutdown();
    }
  }
});

Deno.test("release versions order the semver way", () => {
  const order = [
    "0.9.0",
    "v0.10.0",
    "1.0.0-alpha",
    "1.0.0-alpha.2",
    "1.0.0-alpha.10",
    "1.0.0-rc.1",
    "1.0.0",
  ];
  const parsed = order.map((text) => parseReleaseVersion(text)!);
  for (let index = 1; index < parsed.length; index++) {
    assert.equal(compareReleaseVersions(parsed[index - 1], parsed[index]), -1, order[index]);
    assert.equal(compareReleaseVersions(parsed[index], parsed[index - 1]), 1, order[index]);
  }
  assert.equal(
    compareReleaseVersions(parseReleaseVersion("v1.2.3")!, parseReleaseVersion("1.2.3")!),
    0,
  );
  for (const bad of ["", "1.2", "latest", "v1.2.3.4", "1.2.3-"]) {
    assert.equal(parseReleaseVersion(bad), undefined, bad);
  }
});
