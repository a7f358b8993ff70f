/**
 * What a tool call does to the world. Every tool declares it; the run guard
 * (`src/away/run_guard.ts`) decides from it which calls of a run that read untrusted text need
 * trusted arguments, a standing grant or a yes.
 *
 * - none: reads only (files, pages, memory); changes nothing and sends nothing anywhere;
 * - local_write: changes files or Radar's memory and schedule on this machine;
 * - sends_out: sends data off the machine or changes something elsewhere (a web request, a
 *   search, a calendar server, a mail server);
 * - notifies_user: pushes a message to the user's own notification topic (config chooses where).
 */
import type { Tool } from "./tool.ts";

/** The effects, mildest first. */
export const toolEffects = ["none", "notifies_user", "local_write", "sends_out"] as const;

/** What a tool call does to the world. */
export type ToolEffect = typeof toolEffects[number];

/** A tool's effect: fixed, or decided by the call's arguments (calendar: list vs add). */
export type EffectDeclaration = ToolEffect | ((args: unknown) => ToolEffect);

/**
 * The effect of one call. A tool that declares none counts as `none` when it is read-only and
 * as `sends_out` otherwise (the strictest); a declaration that throws counts as `sends_out`.
 */
export function effectOf(tool: Pick<Tool, "effect" | "readOnly">, args: unknown): ToolEffect {
  const declared = tool.effect;
  if (typeof declared === "function") {
    try {
      const effect = declared(args);
      return toolEffects.includes(effect) ? effect : "sends_out";
    } catch {
      return "sends_out";
    }
  }
  return declared ?? (tool.readOnly ? "none" : "sends_out");
}

/** Effects that a run which read untrusted text may use only with trusted arguments or a grant. */
export function isGatedEffect(effect: ToolEffect): boolean {
  return effect === "local_write" || effect === "sends_out";
}
