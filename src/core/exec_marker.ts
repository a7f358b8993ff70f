/**
 * The environment variable Radar's `exec` tool sets to "1" in every command it runs. Radar's CLI
 * refuses control commands (plugin approval, service install, …) when it is present, whether or
 * not a terminal is attached: a model's tool call must never approve its own permissions.
 */
export const underExecVariable = "RADAR_UNDER_EXEC";
