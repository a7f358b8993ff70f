import assert from "node:assert/strict";
import { dirname, isAbsolute, join, normalize, resolve } from "node:path";
import {
  isAbsolutePath,
  joinPath,
  normalizePath,
  parentPath,
  resolvePath,
} from "../../src/core/file_path.ts";

const samples = [
  "",
  ".",
  "..",
  "/",
  "//",
  "a",
  "a/",
  "/a",
  "/a/",
  "a/b/c",
  "/a//b///c/",
  "./a/./b",
  "../a",
  "../../a/b/..",
  "a/../..",
  "/../a",
  "/a/b/../../..",
  "a/b/../c/./d/",
  "~/x",
  "dir with space/ünïcode",
  ".hidden/.config",
  "a/..b/c..",
];

Deno.test("file paths: normalise, join, resolve, dirname and isAbsolute agree with node:path", () => {
  for (const path of samples) {
    // node keeps one trailing slash in normalize; Radar never relies on it, so compare without.
    const expected = normalize(path).replace(/(.)\/$/, "$1");
    assert.equal(normalizePath(path), expected, `normalize ${JSON.stringify(path)}`);
    assert.equal(isAbsolutePath(path), isAbsolute(path), `isAbsolute ${JSON.stringify(path)}`);
    if (path) {
      const parent = normalize(dirname(path)).replace(/(.)\/$/, "$1"); // node keeps inner "//"
      assert.equal(parentPath(path), parent, `dirname ${JSON.stringify(path)}`);
    }
    assert.equal(resolvePath("/home/me", path), resolve("/home/me", path), `resolve ${path}`);
    for (const other of samples) {
      assert.equal(
        joinPath(path, other),
        join(path, other).replace(/(.)\/$/, "$1"),
        `join ${JSON.stringify(path)} ${JSON.stringify(other)}`,
      );
    }
  }
  assert.equal(joinPath(), ".");
  assert.equal(joinPath("/data", "radar", "radar.db"), "/data/radar/radar.db");
});
