import assert from "node:assert/strict";
import { join } from "node:path";
import { PathGuard } from "../../../src/adapters/os/path_guard.ts";
import { openCheckedForRead, PathChangedError } from "../../../src/adapters/os/checked_open.ts";
import { tempHome } from "../../tools/tool_harness.ts";

function setUp() {
  const home = tempHome();
  const h = home.home;
  Deno.mkdirSync(join(h, ".ssh/sub"), { recursive: true });
  Deno.writeTextFileSync(join(h, ".ssh/id_rsa"), "PRIVATE KEY");
  Deno.mkdirSync(join(h, "docs"));
  Deno.writeTextFileSync(join(h, "docs/a.txt"), "hello");
  Deno.writeTextFileSync(join(h, ".bashrc"), "alias ll='ls -l'");
  Deno.symlinkSync(join(h, ".ssh"), join(h, "notes"));
  Deno.symlinkSync(join(h, ".ssh/id_rsa"), join(h, "innocent.txt"));
  Deno.symlinkSync(join(h, ".ssh/sub"), join(h, "docs/deep"));
  Deno.symlinkSync(join(h, ".zshenv"), join(h, "dangling.txt"));
  Deno.symlinkSync(join(h, "notes"), join(h, "chain"));
  Deno.symlinkSync("../.ssh", join(h, "docs/relative-link"));
  Deno.mkdirSync(join(h, "private"));
  Deno.mkdirSync(join(h, "other/.ssh"), { recursive: true });
  Deno.writeTextFileSync(join(h, "radar.yaml"), "llm: {}\n");
  Deno.writeTextFileSync(join(home.dataDir, "radar.db"), "");
  const guard = new PathGuard({
    home: h,
    cwd: join(h, "docs"),
    dataDir: home.dataDir,
    configPath: join(h, "radar.yaml"),
    blockedPaths: ["~/private"],
  });
  return { home, guard, h };
}

const refusedCases: Array<[string, "read" | "write", RegExp]> = [
  ["~/.ssh/id_rsa", "read", /rule ~\/\.ssh/],
  ["~/notes/id_rsa", "read", /rule ~\/\.ssh/],
  ["~/innocent.txt", "read", /rule ~\/\.ssh/],
  ["~/chain/id_rsa", "read", /rule ~\/\.ssh/],
  ["~/docs/../.ssh/id_rsa", "read", /rule ~\/\.ssh/],
  ["../.ssh/id_rsa", "read", /rule ~\/\.ssh/],
  ["relative-link/id_rsa", "read", /rule ~\/\.ssh/],
  ["~/docs/deep/../id_rsa", "read", /rule ~\/\.ssh/],
  ["~/.SSH/id_rsa", "read", /rule ~\/\.ssh/],
  ["~/.Ssh/new_key", "write", /rule ~\/\.ssh/],
  ["~/.ssh/", "read", /rule ~\/\.ssh/],
  ["~/.ssh/.", "read", /rule ~\/\.ssh/],
  ["~/./.ssh//id_rsa", "read", /rule ~\/\.ssh/],
  ["~root/.ssh/id_rsa", "read", /~user paths are not supported/],
  ["~/other/.ssh/authorized_keys", "write", /rule \*\/\.ssh/],
  ["~/.aws/credentials", "read", /rule ~\/\.aws/],
  ["~/.bash_history", "read", /rule ~\/\.bash_history/],
  ["~/.docker/config.json", "read", /rule ~\/\.docker\/config\.json/],
  ["~/.git-credentials", "write", /rule ~\/\.git-credentials/],
  ["/etc/shadow", "read", /rule \/etc\/shadow/],
  ["/etc/sudoers.d/radar", "write", /rule \/etc\/sudoers\.d/],
  ["~/.bashrc", "write", /rule ~\/\.bashrc/],
  ["~/dangling.txt", "write", /rule ~\/\.zshenv/],
  ["~/.config/autostart/x.desktop", "write", /rule ~\/\.config\/autostart/],
  ["~/Library/LaunchAgents/evil.plist", "write", /rule ~\/Library\/LaunchAgents/],
  ["/etc/cron.d/job", "write", /rule \/etc\/cron\.d/],
  ["~/radar.yaml", "write", /rule radar\.yaml \(Radar's config file\)/],
  ["~/radar.yaml", "read", /rule radar\.yaml \(Radar's config file\)/],
  ["~/.local/share/radar/radar.db", "read", /Radar's data folder/],
  [
    "~/.local/share/radar/radar.log",
    "read",
    /rule ~\/\.local\/share\/radar \(Radar's data folder\)/,
  ],
  ["~/.local/share/radar/plugins/x/main.ts", "write", /Radar's data folder/],
  ["~/private/diary.txt", "read", /rule ~\/private \(tools\.files\.blocked_paths\)/],
  ["~/.pgpass", "read", /rule ~\/\.pgpass \(credentials\)/],
  ["~/.vault-token", "read", /rule ~\/\.vault-token/],
  ["~/.config/rclone/rclone.conf", "read", /rule ~\/\.config\/rclone/],
  ["~/.mozilla/firefox/x.default/logins.json", "read", /rule ~\/\.mozilla/],
  ["~/.config/google-chrome/Default/Login Data", "read", /rule ~\/\.config\/google-chrome/],
  ["~/Library/Application Support/Google/Chrome/Default/Cookies", "read", /Google\/Chrome/],
  ["~/.config/gh/hosts.yml", "read", /rule ~\/\.config\/gh/],
  ["~/.bash_aliases", "write", /rule ~\/\.bash_aliases \(start-up/],
  ["~/.local/share/systemd/user/evil.service", "write", /rule ~\/\.local\/share\/systemd/],
  ["~/.local/bin/ls", "write", /rule ~\/\.local\/bin/],
  ["~/.pam_environment", "write", /rule ~\/\.pam_environment/],
  ["~/.cache/radar/startup.json", "read", /rule ~\/\.cache\/radar \(Radar's cache folder\)/],
  ["~/.config/radar/radar.yaml", "write", /rule ~\/\.config\/radar \(Radar's config folder\)/],
  ["~/.config/radar/radar.yaml", "read", /rule ~\/\.config\/radar \(Radar's config folder\)/],
  ["~/docs/a\0.txt", "read", /NUL byte/],
  ["", "read", /empty/],
];

Deno.test("PathGuard refuses every adversarial path, naming the rule", () => {
  const { home, guard } = setUp();
  try {
    for (const [path, access, reason] of refusedCases) {
      const verdict = guard.check(path, access);
      assert.equal(verdict.ok, false, `${access} ${JSON.stringify(path)} was allowed`);
      if (!verdict.ok) assert.match(verdict.reason, reason, `${access} ${JSON.stringify(path)}`);
    }
  } finally {
    home.dispose();
  }
});

Deno.test("PathGuard ~/.zshenv behind a dangling link resolves to the link's target", () => {
  const { home, guard, h } = setUp();
  try {
    const verdict = guard.check("~/dangling.txt", "read");
    assert.deepEqual(verdict, { ok: true, path: join(h, ".zshenv") });
  } finally {
    home.dispose();
  }
});

Deno.test("PathGuard allows ordinary paths and returns the real path", () => {
  const { home, guard, h } = setUp();
  try {
    assert.deepEqual(guard.check("a.txt", "read"), { ok: true, path: join(h, "docs/a.txt") });
    assert.deepEqual(guard.check("~/docs/new/b.txt", "write"), {
      ok: true,
      path: join(h, "docs/new/b.txt"),
    });
    assert.equal(guard.check("~/.bashrc", "read").ok, true, "start-up files stay readable");
    assert.equal(guard.check("/tmp/radar-test.txt", "write").ok, true);
  } finally {
    home.dispose();
  }
});

Deno.test("PathGuard with allowed_roots refuses everything outside, even through links", () => {
  const { home, h } = setUp();
  try {
    Deno.symlinkSync("/etc", join(h, "docs/etc-link"));
    const guard = new PathGuard({
      home: h,
      cwd: h,
      dataDir: home.dataDir,
      allowedRoots: ["~/docs"],
    });
    assert.equal(guard.check("~/docs/a.txt", "read").ok, true);
    for (
      const path of ["~/radar.yaml", "/etc/hostname", "~/docs/etc-link/hostname", "~/Docs/a.txt"]
    ) {
      const verdict = guard.check(path, "read");
      assert.equal(verdict.ok, false, path);
      if (!verdict.ok) assert.match(verdict.reason, /outside the allowed folders/);
    }
  } finally {
    home.dispose();
  }
});

Deno.test("openCheckedForRead() refuses a file swapped for a symlink after the check", async () => {
  const { home, guard, h } = setUp();
  try {
    const verdict = guard.check("~/docs/a.txt", "read");
    assert.ok(verdict.ok);
    Deno.removeSync(join(h, "docs/a.txt"));
    Deno.symlinkSync(join(h, ".ssh/id_rsa"), join(h, "docs/a.txt"));
    await assert.rejects(() => openCheckedForRead(verdict.path), PathChangedError);
  } finally {
    home.dispose();
  }
});
