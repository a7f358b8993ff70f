/**
 * install.sh against a release server this test starts on 127.0.0.1: platform detection (through a
 * `uname` stand-in on PATH), download, SHA-256 verification, placement in ~/.local/bin, the next
 * step; and its failure paths: a bad sum, a missing sum line, an unknown platform, no network.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromFileUrl } from "./file_url.ts";
import { needing } from "../helpers/system_parts.ts";

const script = fromFileUrl(new URL("../../install.sh", import.meta.url));

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A fake binary: prints a version, as `radar version` does. */
function fakeBinary(target: string, version = "0.9.0"): string {
  return `#!/bin/sh\n# ${target}\necho ${version}\n`;
}

/** Serves `files` under /releases/latest/download/ and /releases/download/v0.9.0/. */
function releaseServer(files: Record<string, string>) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    const name = path.match(/^\/releases\/(?:latest\/download|download\/v0\.9\.0)\/([^/]+)$/)?.[1];
    if (name && name in files) return new Response(files[name]);
    return new Response("Not Found", { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/releases`, requests, server };
}

async function release(overrides: Record<string, string> = {}) {
  const targets = ["aarch64-apple-darwin", "x86_64-apple-darwin", "x86_64-unknown-linux-gnu"];
  const files: Record<string, string> = {};
  for (const target of targets) files[`radar-${target}`] = fakeBinary(target);
  const sums = await Promise.all(
    targets.map(async (target) => `${await sha256(files[`radar-${target}`])}  radar-${target}`),
  );
  files.SHA256SUMS = `${sums.join("\n")}\n`;
  return releaseServer({ ...files, ...overrides });
}

/** Runs install.sh with a fake `uname` answering `system` and `machine`, in a fresh HOME. */
async function install(
  releases: string,
  system: string,
  machine: string,
  env: Record<string, string> = {},
) {
  const home = Deno.makeTempDirSync({ prefix: "radar-install-" });
  const fakeBin = join(home, "fake-bin");
  Deno.mkdirSync(fakeBin);
  Deno.writeTextFileSync(
    join(fakeBin, "uname"),
    `#!/bin/sh\ncase "$1" in -s) echo ${system} ;; -m) echo ${machine} ;; esac\n`,
    { mode: 0o755 },
  );
  const output = await new Deno.Command("sh", {
    args: [script],
    env: {
      PATH: `${fakeBin}:/usr/bin:/bin`,
      HOME: home,
      RADAR_DOWNLOAD_URL: releases,
      ...env,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    home,
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    installed: join(home, ".local", "bin", "radar"),
  };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test(
  needing(["curl"], {
    name: "install.sh installs the verified Linux binary into ~/.local/bin and says what is next",
  }, async () => {
    const { url, server, requests } = await release();
    try {
      const run = await install(url, "Linux", "x86_64");
      assert.equal(run.code, 0, run.stderr);
      assert.equal(Deno.readTextFileSync(run.installed), fakeBinary("x86_64-unknown-linux-gnu"));
      assert.equal(Deno.statSync(run.installed).mode! & 0o777, 0o755);
      assert.match(
        run.stdout,
        /Installed Radar 0\.9\.0 \(x86_64-unknown-linux-gnu\) to .*\/\.local\/bin\/radar\./,
      );
      assert.match(run.stdout, /not on your PATH: add {2}export PATH=/);
      assert.match(run.stdout, /Next: .*\/\.local\/bin\/radar status/);
      assert.deepEqual(requests, [
        "/releases/latest/download/SHA256SUMS",
        "/releases/latest/download/radar-x86_64-unknown-linux-gnu",
      ]);
      Deno.removeSync(run.home, { recursive: true });
    } finally {
      await server.shutdown();
    }
  }),
);

Deno.test(
  needing(["curl"], {
    name: "install.sh picks the macOS binary of the machine, and a tag with RADAR_VERSION",
  }, async () => {
    const { url, server, requests } = await release();
    try {
      const arm = await install(url, "Darwin", "arm64", { RADAR_VERSION: "v0.9.0" });
      assert.equal(arm.code, 0, arm.stderr);
      assert.equal(Deno.readTextFileSync(arm.installed), fakeBinary("aarch64-apple-darwin"));
      assert.ok(requests.includes("/releases/download/v0.9.0/radar-aarch64-apple-darwin"));
      const intel = await install(url, "Darwin", "x86_64");
      assert.equal(intel.code, 0, intel.stderr);
      assert.equal(Deno.readTextFileSync(intel.installed), fakeBinary("x86_64-apple-darwin"));
      for (const run of [arm, intel]) Deno.removeSync(run.home, { recursive: true });
    } finally {
      await server.shutdown();
    }
  }),
);

Deno.test(
  needing(["curl"], {
    name: "a wrong SHA-256 sum installs nothing and leaves the old radar in place",
  }, async () => {
    const { url, server } = await release({
      "radar-x86_64-unknown-linux-gnu": "#!/bin/sh\necho tampered\n",
    });
    try {
      const home = Deno.makeTempDirSync({ prefix: "radar-install-" });
      const bin = join(home, "bin");
      Deno.mkdirSync(bin);
      Deno.writeTextFileSync(join(bin, "radar"), "old");
      const run = await install(url, "Linux", "x86_64", { RADAR_INSTALL_DIR: bin });
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /^install\.sh: the SHA-256 sum of radar-x86_64-unknown-linux-gnu is [0-9a-f]{64}, the release says [0-9a-f]{64}; nothing installed/,
      );
      assert.equal(run.stderr.trim().split("\n").length, 1);
      assert.equal(Deno.readTextFileSync(join(bin, "radar")), "old");
      assert.deepEqual([...Deno.readDirSync(bin)].map((entry) => entry.name), ["radar"]);
      Deno.removeSync(home, { recursive: true });
      Deno.removeSync(run.home, { recursive: true });
    } finally {
      await server.shutdown();
    }
  }),
);

Deno.test(
  needing(
    ["curl"],
    { name: "a release without a sum line for the binary installs nothing" },
    async () => {
      const { url, server } = await release({ SHA256SUMS: "abc  radar-x86_64-apple-darwin\n" });
      try {
        const run = await install(url, "Linux", "x86_64");
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          /has no line for radar-x86_64-unknown-linux-gnu; nothing installed/,
        );
        assert.equal(exists(run.installed), false);
        Deno.removeSync(run.home, { recursive: true });
      } finally {
        await server.shutdown();
      }
    },
  ),
);

Deno.test("an unknown platform stops at once with one line and exit 2, before any download", async () => {
  const { url, server, requests } = await release();
  try {
    for (
      const [system, machine] of [["Linux", "riscv64"], ["FreeBSD", "amd64"], ["Linux", "aarch64"]]
    ) {
      const run = await install(url, system, machine);
      assert.equal(run.code, 2, `${system} ${machine}`);
      assert.match(
        run.stderr,
        new RegExp(`^install\\.sh: no Radar binary for ${system} ${machine} `),
      );
      assert.equal(run.stderr.trim().split("\n").length, 1);
      assert.equal(exists(run.installed), false);
      Deno.removeSync(run.home, { recursive: true });
    }
    assert.deepEqual(requests, []);
  } finally {
    await server.shutdown();
  }
});

Deno.test(
  needing(["curl"], {
    name: "no network (nothing listening) or no such release: exit 1, one line, nothing installed",
  }, async () => {
    const { url, server } = await release();
    await server.shutdown();
    const offline = await install(url, "Linux", "x86_64");
    assert.equal(offline.code, 1);
    assert.match(
      offline.stderr,
      /^install\.sh: cannot download http:\/\/127\.0\.0\.1:\d+\/releases\/latest\/download\/SHA256SUMS \(offline, or no such release\?\)\n$/,
    );
    assert.equal(exists(offline.installed), false);
    Deno.removeSync(offline.home, { recursive: true });

    const other = await release();
    try {
      const missing = await install(other.url, "Linux", "x86_64", { RADAR_VERSION: "v9.9.9" });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot download .*\/download\/v9\.9\.9\/SHA256SUMS/);
      Deno.removeSync(missing.home, { recursive: true });
      const bad = await install(other.url, "Linux", "x86_64", {
        RADAR_VERSION: "latest; rm -rf /",
      });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /RADAR_VERSION must be a release tag/);
      Deno.removeSync(bad.home, { recursive: true });
    } finally {
      await other.server.shutdown();
    }
  }),
);
