/**
 * Port: dynamic values for the system prompt (plugins' `prompt_variables`). The agent loop asks
 * for them once per run; whatever comes back is hostile data, bounded and quoted by
 * `buildSystemPrompt`, never spliced into instructions. A failing source yields no values.
 */

/** Where prompt variables come from (the plugin system in Radar, a fake in tests). */
export interface PromptVariableSource {
  /**
   * Current values keyed `plugin.variable`. Must not throw; each failing value is left out.
   * `conversationId` is for the audit trail.
   */
  variables(context: { signal: AbortSignal; conversationId?: number }): Promise<
    Record<string, string>
  >;
}

/** Bounds on what prompt variables may add to the system prompt. */
export const promptVariableLimits = {
  /** At most this many values are shown. */
  maxVariables: 8,
  /** Each value is flattened to one line and cut to this many characters. */
  maxValueChars: 120,
  /** All variable lines together stay under this many characters. */
  maxTotalChars: 600,
  /**
   * The whole prompt never grows past this (≈ 490 tokens at 3.5 characters per token): variables
   * only use room the fixed prompt and personality notes leave.
   */
  maxPromptChars: 1715,
} as const;

/** Collects variables from a source, never failing: a throwing source gives none. */
export async function collectPromptVariables(
  source: PromptVariableSource | undefined,
  context: { signal: AbortSignal; conversationId?: number },
): Promise<Record<string, string>> {
  if (!source) return {};
  try {
    const values = await source.variables(context);
    return values && typeof values === "object" ? values : {};
  } catch {
    return {};
  }
}
