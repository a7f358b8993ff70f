/**
 * The environment of a program Radar runs on the user's behalf (exec, custom checks): Radar's own
 * variables, desktop-session and key-agent sockets and secrets left out.
 */

/**
 * Values of secret-looking environment variables (…_TOKEN, …_API_KEY, AWS_SECRET_ACCESS_KEY …):
 * the command may use them, but `env` or `echo $X` must not hand them to the model.
 */
export function environmentSecrets(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value && value.length >= 8 &&
      /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|AUTH)/i.test(name)
      ? [value]
      : []
  );
}

/** Variables that point a command at the desktop session or key agents (never passed on). */
const sessionVariables = new Set([
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "GNOME_KEYRING_CONTROL",
]);

/**
 * The child's environment: Radar's own variables, session/agent sockets and secrets removed, and
 * RADAR_UNDER_EXEC=1 added.
 */
export function childEnvironment(
  env: Record<string, string | undefined>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name.startsWith("RADAR_") || sessionVariables.has(name)) continue;
    if (secrets.some((secret) => value.includes(secret))) continue;
    out[name] = value;
  }
  out.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  out[underExecVariable] = "1"; // Radar's CLI refuses control commands under exec
  return out;
}

/**
 * The environment variable Radar's `exec` tool sets to "1" in every command it runs. Radar's CLI
 * refuses control commands (plugin approval, service install, …) when it is present, whether or
 * not a terminal is attached: a model's tool call must never approve its own permissions.
 */
export const underExecVariable = "RADAR_UNDER_EXEC";
