/**
 * The statement parsers with their npm packages (csv-parse, fast-xml-parser), in one module the
 * import loads with a literal `import()` at its first file: `radar ask` and a daemon without
 * statements never load them, and `deno compile` still embeds them.
 */
export { csvStatement, findHeader, readCsvRecords } from "./csv_statement.ts";
export { decodeOfx, ofxStatement } from "./ofx_statement.ts";
export { camtStatement } from "./camt_statement.ts";
