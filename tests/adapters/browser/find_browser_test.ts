/** Which browser Radar drives: the configured one, else the first found on macOS or Linux. */
import assert from "node:assert/strict";
import { findBrowser } from "../../../src/adapters/browser/find_browser.ts";
import { needing } from "../../helpers/system_parts.ts";

const present = (paths: string[]) => (path: string) => paths.includes(path);

Deno.test("macOS: Chrome, Chromium, Edge, Brave in /Applications or ~/Applications, in that order", () => {
  const env = { HOME: "/Users/ada" };
  const edge = "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge";
  const chromium = "/Users/ada/Applications/Chromium.app/Contents/MacOS/Chromium";
  assert.deepEqual(
    findBrowser({ configured: "", os: "darwin", env, isExecutable: present([edge, chromium]) }),
    { executable: edge, name: "Microsoft Edge", source: "found" },
  );
  assert.deepEqual(
    findBrowser({ configured: "", os: "darwin", env, isExecutable: present([chromium]) }),
    { executable: chromium, name: "Chromium", source: "found" },
  );
  const none = findBrowser({ configured: "", os: "darwin", env, isExecutable: present([]) });
  assert.match(
    none.problem ?? "",
    /no browser found \(looked for Google Chrome, Chromium.*\); set browser\.executable/,
  );
});

Deno.test("Linux: names on PATH first (chromium before google-chrome), then install folders", () => {
  const env = { HOME: "/home/ada", PATH: "/home/ada/bin:/usr/bin" };
  assert.deepEqual(
    findBrowser({
      configured: "",
      os: "linux",
      env,
      isExecutable: present(["/usr/bin/google-chrome", "/usr/bin/chromium"]),
    }),
    { executable: "/usr/bin/chromium", name: "Chromium", source: "found" },
  );
  assert.deepEqual(
    findBrowser({
      configured: "",
      os: "linux",
      env,
      isExecutable: present(["/opt/google/chrome/chrome"]),
    }),
    { executable: "/opt/google/chrome/chrome", name: "Google Chrome", source: "found" },
  );
  assert.match(
    findBrowser({ configured: "", os: "linux", env, isExecutable: present([]) }).problem ?? "",
    /chromium, chromium-browser, google-chrome, microsoft-edge or brave-browser on PATH/,
  );
});

Deno.test("browser.executable wins, with ~ expanded; a missing one says so", () => {
  const env = { HOME: "/home/ada" };
  assert.deepEqual(
    findBrowser({
      configured: "~/bin/brave-browser",
      os: "linux",
      env,
      isExecutable: present(["/home/ada/bin/brave-browser", "/usr/bin/chromium"]),
    }),
    { executable: "/home/ada/bin/brave-browser", name: "Brave", source: "config" },
  );
  assert.deepEqual(
    findBrowser({ configured: "/nope/chrome", os: "linux", env, isExecutable: present([]) }),
    { problem: "browser.executable /nope/chrome is not an executable file" },
  );
});

Deno.test(needing(["chromium"], {
  name: "the real search finds this machine's Chromium (the browser tests use it)",
}, () => {
  const found = findBrowser({ configured: "", os: Deno.build.os, env: { PATH: "/usr/bin:/bin" } });
  assert.equal(found.executable, "/usr/bin/chromium", found.problem);
}));
