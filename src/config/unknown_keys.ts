/** Finds keys in a raw config that the schema does not know (likely typos). */
import type { z } from "zod";

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: z.ZodType;
      shape?: Record<string, z.ZodType>;
      element?: z.ZodType;
      options?: z.ZodType[];
    };
  };
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as unknown as ZodInternals;
  while (current._zod.def.innerType) {
    current = current._zod.def.innerType as unknown as ZodInternals;
  }
  return current as unknown as z.ZodType;
}

/** Returns dotted paths of keys in `raw` that `schema` does not declare. */
export function unknownKeys(schema: z.ZodType, raw: unknown, prefix = ""): string[] {
  const def = (unwrap(schema) as unknown as ZodInternals)._zod.def;
  if (def.type === "object" && def.shape && raw && typeof raw === "object" && !Array.isArray(raw)) {
    const found: string[] = [];
    for (const [key, value] of Object.entries(raw)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const inner = def.shape[key];
      if (!inner) found.push(path);
      else found.push(...unknownKeys(inner, value, path));
    }
    return found;
  }
  if (def.type === "array" && def.element && Array.isArray(raw)) {
    return raw.flatMap((item, index) => unknownKeys(def.element!, item, `${prefix}[${index}]`));
  }
  return [];
}
