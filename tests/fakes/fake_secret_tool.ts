/**
 * A fake libsecret `secret-tool` on PATH for tests: `secret-tool lookup service S account A`
 * prints the password stored for (S, A) in its state folder, logs each argv (one argument per
 * line, so quoting mistakes show), and can behave like a locked keyring or a hanging prompt.
 */
import { join } from "node:path";

/** A fake secret-tool install. */
export interface FakeSecretTool {
  /** The folder to put first on PATH. */
  bin: string;
  /** The environment to run Radar's lookup with. */
  env: Record<string, string>;
  /** Stores a password for (service, account). */
  store(service: string, account: string, password: string): void;
  /** Makes lookups fail like a locked keyring ("locked") or hang ("hang"). */
  behave(mode: "locked" | "hang"): void;
  /** The argument lists secret-tool was called with. */
  calls(): string[][];
  dispose(): void;
}

const script = `#!/bin/sh
state="$FAKE_SECRET_STATE"
{ for arg in "$@"; do printf '%s\\n' "$arg"; done; echo "--"; } >> "$state/calls"
if [ -e "$state/hang" ]; then sleep 30; fi
if [ -e "$state/locked" ]; then
  echo "secret-tool: Cannot get secret of a locked object" >&2
  exit 1
fi
[ "$1" = lookup ] && [ "$2" = service ] && [ "$4" = account ] || { echo "usage" >&2; exit 2; }
for file in "$state"/item.*; do
  [ -e "$file" ] || continue
  if [ "$(sed -n 1p "$file")" = "$3" ] && [ "$(sed -n 2p "$file")" = "$5" ]; then
    sed -n 3p "$file" | tr -d '\\n'
    exit 0
  fi
done
exit 1
`;

/** Installs the fake in a temp folder outside /tmp's sandboxed view (plain temp dir is fine). */
export function installFakeSecretTool(): FakeSecretTool {
  const root = Deno.makeTempDirSync({ prefix: "radar-fake-secret-tool-" });
  const bin = join(root, "bin");
  const state = join(root, "state");
  Deno.mkdirSync(bin);
  Deno.mkdirSync(state);
  Deno.writeTextFileSync(join(bin, "secret-tool"), script, { mode: 0o755 });
  let items = 0;
  return {
    bin,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root, FAKE_SECRET_STATE: state },
    store: (service, account, password) =>
      Deno.writeTextFileSync(
        join(state, `item.${items++}`),
        `${service}\n${account}\n${password}\n`,
      ),
    behave: (mode) => Deno.writeTextFileSync(join(state, mode), ""),
    calls: () => {
      try {
        return Deno.readTextFileSync(join(state, "calls")).split("--\n").filter(Boolean)
          .map((call) => call.trimEnd().split("\n"));
      } catch {
        return [];
      }
    },
    dispose: () => Deno.removeSync(root, { recursive: true }),
  };
}
