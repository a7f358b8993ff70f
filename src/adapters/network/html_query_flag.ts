/** The hidden first argument that starts the compiled binary as the HTML query child (main.ts). */
export const htmlQueryFlag = "--radar-html-query";
