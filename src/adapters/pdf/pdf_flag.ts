/** The hidden first argument that starts the compiled binary as a PDF subprocess (see main.ts). */
export const pdfExtractFlag = "--radar-pdf-extract";
