/** The secret values of a configuration: what `Secrets` starts from. */
import type { RadarConfig } from "./schema.ts";
import { secretKeyPattern } from "./mask_secrets.ts";

/**
 * Every non-empty value of a secret key (`…token`, `…api_key`, `…password`, `…secret`) anywhere
 * in the config: the same rule that masks them in `radar config show` and the dashboard.
 */
export function configSecretValues(config: RadarConfig): string[] {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (secretKeyPattern.test(key) && typeof inner === "string") {
          if (inner && !found.includes(inner)) found.push(inner);
        } else visit(inner);
      }
    }
  };
  visit(config);
  return found;
}
