/**
 * Writes one digest: the period's material goes to the model as untrusted data with one short
 * instruction and no tools; the answer is stored as a searchable digest. An empty period costs no
 * model call. Secrets known now are masked in the material (before it is cut) and in the stored
 * digest: the model server may be remote, and the digest is searched, embedded and shown later.
 */
import type { ChatModel } from "../../core/chat_model.ts";
import type { BackgroundBudget } from "../../core/budget.ts";
import type { Clock } from "../../core/ports.ts";
import { Secrets } from "../../core/secrets.ts";
import type { DigestStore, PeriodActivity } from "../source_stores.ts";
import type { Digest } from "../../core/source_ports.ts";
import { untrustedNotice, wrapUntrusted } from "../../core/untrusted_text.ts";
import { digestMaterial } from "./digest_material.ts";

/** What writing a digest needs. */
export interface DigestWriterDependencies {
  activity: PeriodActivity;
  digests: DigestStore;
  model: ChatModel;
  clock: Clock;
  maxInputChars: number;
  /** The known secrets (the config's and those read since start), asked on each digest. */
  secrets?: Secrets;
  /** `budget:` for scheduled digests: told what each model call spent (absent: a person's run). */
  budget?: Pick<BackgroundBudget, "spent">;
}

/** The longest digest kept. */
const maxDigestChars = 4000;

const instruction =
  "Write a short digest of this period for the user: what they asked and decided, what Radar " +
  "did, and what happened (mail, calendar, checks, GitHub, files). At most 12 bullet points, " +
  "plain text, no preamble. Keep names, numbers and dates that someone may search for later.";

/** Writes (or rewrites) the digest of `period` from `from` to `to`. */
export async function writeDigest(
  deps: DigestWriterDependencies,
  period: Digest["period"],
  from: Date,
  to: Date,
  signal?: AbortSignal,
): Promise<Digest> {
  const secrets = deps.secrets ?? new Secrets();
  const material = digestMaterial(deps.activity, from, to, deps.maxInputChars, secrets);
  let content: string;
  if (!material.lines.length) {
    content = "No conversations or events in this period.";
  } else {
    const data = material.lines.join("\n") +
      (material.omitted ? `\n(${material.omitted} more lines left out)` : "");
    const response = await deps.model.chat({
      messages: [
        { role: "system", content: instruction },
        {
          role: "user",
          content: `${period === "day" ? "Daily" : "Weekly"} digest for ${from.toISOString()} – ` +
            `${to.toISOString()}.\n${
              wrapUntrusted(data, { source: "conversations and events" })
            }\n` +
            untrustedNotice,
        },
      ],
      tools: [],
      temperature: 0.2,
    }, signal);
    deps.budget?.spent(
      "digest",
      response.usage,
      deps.clock.now(),
      `${period} ${from.toISOString()}`,
    );
    content = secrets.mask(response.content.trim()).slice(0, maxDigestChars) ||
      "(the model wrote nothing)";
  }
  const digest = {
    period,
    startsAt: from.toISOString(),
    endsAt: to.toISOString(),
    content,
    createdAt: deps.clock.now().toISOString(),
  };
  deps.digests.save(digest);
  return deps.digests.find(period, from)!;
}
