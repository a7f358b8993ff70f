/**
 * Single-use capabilities in SQLite: the secret of a button URL is 32 random bytes; only its
 * SHA-256 is stored, so a copy of the database opens nothing. Redeeming marks it used in the same
 * statement that checks it (once, even with two racing requests) and kills the target's other
 * capabilities of the same decision (an approval's Deny button after its Approve).
 */
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { Capability, CapabilityAction, CapabilityTokens } from "../../away/approval_ports.ts";
import { deleteBefore, transaction, write } from "./write.ts";
import { camelRecord, columnsOf, selectOne } from "./rows.ts";

/** The SHA-256 of a secret, hex. */
function hashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A fresh secret: 32 bytes from the platform's CSPRNG, base64url. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Secrets look like what `newSecret` makes; anything else is refused before the database. */
const secretShape = /^[A-Za-z0-9_-]{43}$/;

/** A capability's columns, in its record's key order. */
const capabilityColumns = columnsOf<Capability>()("action target expires_at");

/** Actions decided together: using one kills the others of the same target. */
const decisions: Record<CapabilityAction, CapabilityAction[]> = {
  approve: ["approve", "deny"],
  deny: ["approve", "deny"],
  undo: ["undo"],
};

/** The `capabilities` table. */
export class SqliteCapabilityStore implements CapabilityTokens {
  constructor(private readonly db: DatabaseSync) {}

  /** Issues a new secret for one action on one target. */
  issue(capability: Capability, at: Date): string {
    const secret = newSecret();
    write(
      this.db,
      "the button capability",
      "INSERT INTO capabilities (hash, action, target, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      hashOf(secret),
      capability.action,
      capability.target,
      at.toISOString(),
      capability.expiresAt,
    );
    return secret;
  }

  /** What a secret may do now, without using it. */
  peek(secret: string, at: Date): Capability | undefined {
    if (!secretShape.test(secret)) return undefined;
    return selectOne(
      this.db,
      (row) => camelRecord(row, capabilityColumns),
      `SELECT action, target, expires_at FROM capabilities
       WHERE hash = ? AND used_at IS NULL AND expires_at > ?`,
      hashOf(secret),
      at.toISOString(),
    );
  }

  /** Uses a secret once. */
  redeem(secret: string, at: Date): Capability | undefined {
    if (!secretShape.test(secret)) return undefined;
    const hash = hashOf(secret);
    return transaction(this.db, () => {
      const found = this.peek(secret, at);
      if (!found) return undefined;
      const used = write(
        this.db,
        "the button capability",
        "UPDATE capabilities SET used_at = ? WHERE hash = ? AND used_at IS NULL",
        at.toISOString(),
        hash,
      ).changes;
      if (!used) return undefined;
      this.#useAll(decisions[found.action], found.target, at);
      return found;
    }, "the button capability");
  }

  /** Revokes every capability of these actions on a target. */
  revokeTarget(actions: CapabilityAction[], target: number, at: Date): void {
    this.#useAll(actions, target, at);
  }

  /** Deletes capabilities that expired before `before`. */
  prune(before: Date): number {
    return deleteBefore(
      this.db,
      "the capabilities cleanup",
      "DELETE FROM capabilities WHERE expires_at < ?",
      before,
    );
  }

  #useAll(actions: CapabilityAction[], target: number, at: Date): void {
    write(
      this.db,
      "the button capability",
      `UPDATE capabilities SET used_at = ? WHERE target = ? AND used_at IS NULL
       AND action IN (${actions.map(() => "?").join(", ")})`,
      at.toISOString(),
      target,
      ...actions,
    );
  }
}
