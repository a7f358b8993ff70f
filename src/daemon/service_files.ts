/** The text of a launchd agent (macOS) and a systemd user unit (Linux) running `radar serve`. */
import { join } from "node:path";

/** What a service definition runs. */
export interface ServiceSpec {
  program: string;
  args: string[];
  env: Record<string, string>;
  /** Where launchd writes crash output before Radar's own log takes over. */
  errorLog: string;
}

/** The launchd label and systemd unit name. */
const serviceLabel = "dev.radar.daemon";
const unitName = "radar.service";

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A launchd agent: starts at login, restarts after a crash (not after `radar stop`). */
export function launchdPlist(spec: ServiceSpec): string {
  const strings = (values: string[]) =>
    values.map((value) => `    <string>${xml(value)}</string>`).join("\n");
  const env = Object.entries(spec.env).map(([key, value]) =>
    `    <key>${xml(key)}</key>\n    <string>${xml(value)}</string>`
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${serviceLabel}</string>
  <key>ProgramArguments</key>
  <array>
${strings([spec.program, ...spec.args])}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
${env}
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>30</integer>
  <key>ProcessType</key>
  <string>Background</string>
  <key>StandardOutPath</key>
  <string>/dev/null</string>
  <key>StandardErrorPath</key>
  <string>${xml(spec.errorLog)}</string>
</dict>
</plist>
`;
}

/** Quotes one word for a systemd ExecStart/Environment line. */
function systemdQuote(value: string): string {
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%")
    .replace(/\$/g, "$$$$");
  return `"${escaped}"`;
}

/** A systemd user unit: restarts on failure, stops with SIGTERM like `radar stop`. */
export function systemdUnit(spec: ServiceSpec): string {
  const env = Object.entries(spec.env).map(([key, value]) =>
    `Environment=${systemdQuote(`${key}=${value}`)}`
  );
  return [
    "[Unit]",
    "Description=Radar personal AI assistant (heartbeat daemon)",
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[spec.program, ...spec.args].map(systemdQuote).join(" ")}`,
    ...env,
    "Restart=on-failure",
    "RestartSec=10",
    "KillSignal=SIGTERM",
    "TimeoutStopSec=30",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

/** Where the service file goes and the commands that load and unload it. */
export function serviceLocation(os: string, home: string, configHome?: string): {
  kind: "launchd" | "systemd";
  path: string;
  load: string;
  unload: string;
} | undefined {
  if (os === "darwin") {
    const path = join(home, "Library", "LaunchAgents", `${serviceLabel}.plist`);
    return {
      kind: "launchd",
      path,
      load: `launchctl load -w ${path}`,
      unload: `launchctl unload -w ${path}`,
    };
  }
  if (os === "linux") {
    const path = join(configHome || join(home, ".config"), "systemd", "user", unitName);
    return {
      kind: "systemd",
      path,
      load: `systemctl --user daemon-reload && systemctl --user enable --now ${unitName}`,
      unload: `systemctl --user disable --now ${unitName}`,
    };
  }
  return undefined;
}
