/** Configuration as YAML text (`radar config show`); loaded on first use, like the parser. */
import { stringify } from "yaml";

/** Renders a value as YAML. */
export function toYamlText(value: unknown): string {
  return stringify(value);
}
