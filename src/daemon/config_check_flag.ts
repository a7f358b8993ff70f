/** The hidden first argument that starts the compiled binary as the config check child (main.ts). */
export const configCheckFlag = "--radar-config-check";
