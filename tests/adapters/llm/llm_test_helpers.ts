/** Test helpers shared by the LLM adapter tests. */
import assert from "node:assert/strict";
import { LlmError } from "../../../src/core/errors.ts";

/** Awaits `promise`, which must reject with an `LlmError`, and returns that error. */
export async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, String(error));
    return error;
  }
  assert.fail("expected an LlmError");
}

/** A `sleep` that returns at once and records every requested wait. */
export function recordingSleep(): { sleeps: number[]; sleep: (ms: number) => Promise<void> } {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  };
}
