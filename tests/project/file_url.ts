/** Converts a file: URL to a path (node:url without the import cost in every test). */
export { fileURLToPath as fromFileUrl } from "node:url";
