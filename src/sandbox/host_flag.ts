/** The hidden first argument that starts Radar in plugin-host mode (see host_process.ts). */
export const pluginHostFlag = "--radar-plugin-host";
