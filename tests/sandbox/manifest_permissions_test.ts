import assert from "node:assert/strict";
import { parseManifest } from "../../src/sandbox/manifest.ts";
import {
  diffGrants,
  emptyGrant,
  intersectGrants,
  narrowGrant,
  processFlags,
  requestedGrant,
  workerPermissions,
} from "../../src/sandbox/permissions.ts";
import {
  describeGrant,
  grantWarnings,
  narrowingNotes,
  permissionDiff,
} from "../../src/sandbox/describe_permissions.ts";
import { protectedLocations, radarPlacesFrom } from "../../src/core/protected_paths.ts";

const local = `
name: notes
version: 1.2.0
description: Notes
trust_level: local
permissions:
  read: ["~/Documents/notes", "./data", "~/x/../Documents/other"]
  net: ["API.example.com:443"]
  env: [NOTES_TOKEN]
tools:
  - name: find_note
    description: Find a note
    parameters:
      query: { type: string, description: Words }
      limit: { type: integer, optional: true }
`;

Deno.test("parseManifest() converts the parameter shorthand to JSON Schema", () => {
  const result = parseManifest(local, "notes");
  assert.ok(result.ok);
  assert.deepEqual(result.manifest.tools[0].parameters, {
    type: "object",
    properties: { query: { type: "string", description: "Words" }, limit: { type: "integer" } },
    required: ["query"],
  });
});

Deno.test("parseManifest() refuses run/ffi/sys/all, a name unlike the folder and sandbox permissions", () => {
  const run = parseManifest(local.replace("env: [NOTES_TOKEN]", "run: [sh]"), "notes");
  assert.ok(!run.ok && run.errors.some((error) => error.includes("permissions")));
  const folder = parseManifest(local, "other");
  assert.ok(!folder.ok && folder.errors.some((error) => error.includes("folder name")));
  const sandbox = parseManifest(
    local.replace("trust_level: local", "trust_level: sandbox"),
    "notes",
  );
  assert.ok(!sandbox.ok && sandbox.errors.some((error) => error.includes("sandbox plugin")));
  const yaml = parseManifest("name: [", "notes");
  assert.ok(!yaml.ok && /not valid YAML/.test(yaml.errors[0]));
});

Deno.test("requestedGrant() expands ~ and relative paths and lowercases hosts", () => {
  const result = parseManifest(local, "notes");
  assert.ok(result.ok);
  const grant = requestedGrant(result.manifest, {
    home: "/home/ann",
    pluginDir: "/data/plugins/available/notes",
  });
  assert.ok(grant.ok);
  assert.deepEqual(grant.grant, {
    read: [
      "/home/ann/Documents/notes",
      "/data/plugins/available/notes/data",
      "/home/ann/Documents/other",
    ],
    write: [],
    net: ["api.example.com:443"],
    env: ["NOTES_TOKEN"],
  });
  assert.deepEqual(processFlags(grant.grant), [
    "--allow-read=/home/ann/Documents/notes,/data/plugins/available/notes/data,/home/ann/Documents/other",
    "--allow-net=api.example.com:443",
    "--allow-env=NOTES_TOKEN",
  ]);
});

Deno.test("workerPermissions() denies every kind by default and never inherits", () => {
  assert.deepEqual(workerPermissions(emptyGrant), {
    read: false,
    write: false,
    net: false,
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  });
  const permissions = workerPermissions({ ...emptyGrant, net: ["a.example:443"] });
  assert.deepEqual(permissions.net, ["a.example:443"]);
  assert.equal(permissions.run, false);
});

Deno.test("intersectGrants() keeps only what was both asked for and approved", () => {
  const asked = { read: ["/a", "/b"], write: ["/w"], net: ["x:1"], env: ["E"] };
  const approved = { read: ["/a"], write: [], net: ["x:1", "y:2"], env: [] };
  assert.deepEqual(intersectGrants(asked, approved), {
    read: ["/a"],
    write: [],
    net: ["x:1"],
    env: [],
  });
});

Deno.test("permissions are described in plain words, with warnings and a diff", () => {
  const grant = {
    read: ["/home/ann/Documents", "/home/ann/.ssh"],
    write: [],
    net: ["api.github.com:443", "127.0.0.1"],
    env: ["GITHUB_TOKEN"],
  };
  assert.deepEqual(describeGrant(grant, "/home/ann"), [
    "read files under ~/Documents",
    "read files under ~/.ssh",
    "connect to api.github.com:443",
    "connect to 127.0.0.1 on any port",
    "read the environment variable GITHUB_TOKEN",
  ]);
  const warnings = grantWarnings(grant, "/home/ann").join("\n");
  assert.doesNotMatch(
    warnings,
    /\.ssh/,
    "~/.ssh is cut out (narrowingNotes), not merely warned about",
  );
  assert.match(warnings, /127\.0\.0\.1 is on this machine/);
  assert.match(warnings, /GITHUB_TOKEN looks like a secret/);
  assert.deepEqual(describeGrant(emptyGrant, "/home/ann"), [
    "no access to files, network or environment (computation only)",
  ]);
  const diff = diffGrants({ ...emptyGrant, net: ["a:443"] }, { ...emptyGrant, net: ["b:443"] });
  assert.deepEqual(diff.added.net, ["b:443"]);
  const words = permissionDiff(
    { ...emptyGrant, net: ["a:443"], read: ["/home/ann/x"] },
    { ...emptyGrant, net: ["b:443"], read: ["/home/ann/x"] },
    "/home/ann",
  );
  assert.deepEqual(words, {
    sinceApproval: true,
    added: [{ kind: "net", target: "b:443", description: "connect to b:443" }],
    removed: [{ kind: "net", target: "a:443", description: "connect to a:443" }],
    unchanged: [{ kind: "read", target: "/home/ann/x", description: "read files under ~/x" }],
  });
  assert.equal(
    permissionDiff(undefined, { ...emptyGrant, env: ["A"] }, "/home/ann").added[0].description,
    "read the environment variable A",
  );
});

Deno.test("narrowGrant() cuts Radar's folders and secrets out of broad grants, and says so", () => {
  const folders: Record<string, string[]> = {
    "/home/me": [".ssh", ".config", ".local", ".bashrc", "notes"],
    "/home/me/.config": ["radar", "gh", "app"],
    "/home/me/.local": ["share", "state"],
    "/home/me/.local/share": ["radar", "keyrings", "fonts"],
  };
  const locations = protectedLocations(
    radarPlacesFrom({ HOME: "/home/me" }, "/home/me/.local/share/radar"),
  );
  const narrowed = narrowGrant(
    {
      ...emptyGrant,
      read: ["/home/me/.local/share", "/home/me/.cache", "/home/me/.ssh/id_rsa", "/srv/data"],
      write: ["/home/me"],
    },
    locations,
    (path) => folders[path],
  );
  assert.deepEqual(narrowed.grant.read, ["/home/me/.local/share/fonts", "/srv/data"]);
  assert.deepEqual(narrowed.grant.write, [
    "/home/me/.config/app",
    "/home/me/.local/share/fonts",
    // ~/.local/state holds shell histories (bash, elvish): cut into its other entries (none here).
    "/home/me/notes",
  ]);
  assert.deepEqual(narrowed.cut.read.map((location) => location.path), [
    "/home/me/.local/share/radar",
    "/home/me/.local/share/keyrings",
    "/home/me/.cache/radar",
    "/home/me/.ssh",
  ]);
  const notes = narrowingNotes(narrowed, "/home/me");
  assert.match(
    notes[0],
    /^NOTE: Radar never lets plugins read Radar's data folder \(Radar's own state\), ~\/\.local\/share\/keyrings \(credentials\), Radar's cache folder \(Radar's own state\), ~\/\.ssh \(credentials\): they are cut out of this grant, even once approved$/,
  );
  assert.match(
    notes[1],
    /^NOTE: Radar never lets plugins change ~\/\.ssh \(credentials\), .*~\/\.bashrc \(start-up and schedule files are never written\)/,
  );
  assert.deepEqual(narrowGrant({ ...emptyGrant, read: ["/srv"] }, locations, () => []).cut, {
    read: [],
    write: [],
  });
});
