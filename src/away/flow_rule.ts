/**
 * The rule every changing or sending call of a run meets, from the run's labels (what it read),
 * never from what the text looks like:
 *
 * - a run that read untrusted text changes or sends something only when every part of the call
 *   is derived from trusted text (`argument_provenance.ts`) or a standing grant matches it;
 * - a run that read private data sends to another machine only where a grant matching the call
 *   says private data may go (`private_data_to`: origins, compared exactly), whatever the
 *   arguments look like; a tool that cannot say where it sends (a command with network access)
 *   sends nowhere without a yes.
 *
 * Reading and notifying the user are free. The reasons name arguments and sources, never their
 * values, so they can travel in a notice. Pure.
 */
import { type Destinations, isGatedEffect, type Tool, type ToolEffect } from "../core/tool.ts";
import { type TrustedPlaces, type UnderivedPart, underivedParts } from "./argument_provenance.ts";
import type { RunLabels } from "./run_labels.ts";

/** A standing grant as the rule sees it: an id to report, nothing else. */
export interface MatchedGrant {
  id: string;
}

/**
 * The grant that answers yes to a call: one whose tool and argument patterns match, and — when
 * `privateDataTo` is given — which says private data may go to each of those origins.
 */
export type GrantLookup = (
  tool: Tool,
  args: Record<string, unknown>,
  privateDataTo?: readonly string[],
) => MatchedGrant | undefined;

/** What the rule decided about one call. */
export type FlowVerdict =
  | { held: false; grant?: MatchedGrant }
  | {
    held: true;
    /** Why, in words without argument values. */
    reasons: string[];
    /** The parts of the call not derived from trusted text (integrity). */
    underived: UnderivedPart[];
    /**
     * Where the call would send private data that no grant covers (confidentiality); empty when
     * that is not why it is held.
     */
    uncovered: Destinations;
    /** A grant matched the call but does not cover private data to these destinations. */
    grant?: MatchedGrant;
  };

/** What the rule looks at. */
export interface FlowCheck {
  tool: Tool;
  args: Record<string, unknown>;
  effect: ToolEffect;
  labels: RunLabels;
  places: TrustedPlaces;
  grants?: GrantLookup;
  /** The run's conversation (the browser's `fill` sends to the page open there). */
  conversationId?: number;
}

/** Where a call of `tool` sends, as it declares (anywhere when it cannot say). */
export function destinationsOf(
  tool: Tool,
  args: Record<string, unknown>,
  conversationId?: number,
): Destinations {
  try {
    return tool.destinations?.(args, { conversationId }) ?? "anywhere";
  } catch {
    return "anywhere";
  }
}

/** Decides one call. */
export function checkFlow(check: FlowCheck): FlowVerdict {
  const { tool, args, effect, labels } = check;
  if (!isGatedEffect(effect)) return { held: false };
  const needsTrust = labels.untrusted;
  const sendsPrivate = effect === "sends_out" && labels.private;
  if (!needsTrust && !sendsPrivate) return { held: false };
  const destinations = sendsPrivate ? destinationsOf(tool, args, check.conversationId) : [];
  const offMachine = destinations === "anywhere" || destinations.length > 0;
  if (sendsPrivate && offMachine && destinations !== "anywhere") {
    const covering = check.grants?.(tool, args, destinations);
    if (covering) return { held: false, grant: covering };
  }
  const grant = check.grants?.(tool, args);
  const underived = needsTrust && !grant
    ? underivedParts(args, check.places, {
      pathArguments: tool.pathArguments,
      urlArguments: tool.urlArguments,
      schema: tool.parameters,
      ownNames: tool.ownNames,
    })
    : [];
  const uncovered: Destinations = sendsPrivate && offMachine ? destinations : [];
  const privateHeld = uncovered === "anywhere" || uncovered.length > 0;
  if (!underived.length && !privateHeld) return { held: false, grant };
  const reasons = underived.map((part) =>
    part.reason === "too_large"
      ? "the call is too large to check where its arguments came from"
      : `${part.argument} is not from your own words or a folder you named`
  );
  if (privateHeld) {
    reasons.push(
      `this run read private data (${labels.privateSources.join(", ")}), and ${tool.name} ` +
        (uncovered === "anywhere"
          ? "may send it anywhere"
          : `would send to ${
            uncovered.length === 1 ? "an address" : "addresses"
          } no grant allows private data to go`),
    );
  }
  return { held: true, reasons, underived, uncovered, grant };
}
