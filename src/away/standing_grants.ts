/**
 * The standing grants the user can read and revoke: radar.yaml's `grants:` rules and the ones
 * "Always allow…" or `radar grants add` stored, each checked against the grant rules.
 */
import type { GrantCheck, GrantStore, NewStandingGrant, StandingGrant } from "./approval_ports.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { normalizeOrigin } from "../core/origins.ts";
import type { Tool } from "../core/tool.ts";
import {
  allGrants,
  grantCheck,
  grantLimits,
  type GrantMatcherOptions,
  grantProblems,
  suggestGrant,
} from "./grant_rules.ts";

/**
 * A grant as listed: with what is wrong with it now (a wrong one never answers yes), and where it
 * covers less than its patterns seem to say (a browser grant without a target).
 */
export type ListedGrant = StandingGrant & { problems: string[]; limits: string[] };

/** What the grants are built from: the matcher's parts, with a store always. */
interface StandingGrantsParts extends GrantMatcherOptions {
  store: GrantStore;
  /** The registry's tool of a name (the tools load on first use). */
  tool: (name: string) => Promise<Tool | undefined>;
}

/** The standing grants. */
export class StandingGrants {
  /** Asked by the agent loop on every call that changes something. */
  readonly check: GrantCheck;

  constructor(private readonly parts: StandingGrantsParts) {
    this.check = grantCheck(parts);
  }

  /** Every grant, config rules first, with its problems. */
  async list(): Promise<ListedGrant[]> {
    const listed: ListedGrant[] = [];
    for (const grant of allGrants(this.parts)) {
      const tool = await this.parts.tool(grant.tool);
      listed.push({
        ...grant,
        problems: grantProblems(grant, tool, this.parts.paths),
        limits: grantLimits(grant, tool),
      });
    }
    return listed;
  }

  /** Stores a grant (its origins as origins: `https://a.example`); a UsageError says what is wrong. */
  async add(grant: NewStandingGrant): Promise<StandingGrant> {
    const problems = grantProblems(grant, await this.parts.tool(grant.tool), this.parts.paths);
    if (problems.length) throw new UsageError(`Cannot add the grant: ${problems.join("; ")}`);
    const privateDataTo = grant.privateDataTo?.map((origin) => normalizeOrigin(origin) ?? origin);
    return this.parts.store.add({ ...grant, privateDataTo }, this.parts.clock.now());
  }

  /** Deletes a stored grant (config rules are edited in radar.yaml). */
  revoke(id: string): void {
    if (id.startsWith("config:")) {
      throw new UsageError(
        `Cannot revoke grant ${id}: it is a grants: rule in radar.yaml; delete it there`,
      );
    }
    if (!this.parts.store.revoke(id)) {
      throw new NotFoundError(`Cannot revoke grant ${id}: no such grant`);
    }
  }

  /** The patterns "Always allow…" suggests for a call of `toolName`. */
  async suggest(
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, string>> {
    const tool = await this.parts.tool(toolName);
    return tool ? suggestGrant(tool, args, this.parts.paths) : {};
  }
}
