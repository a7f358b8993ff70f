/**
 * After an unattended run changed files on its own (a standing grant said yes, or the files were
 * inside the writable folders), one notification says what changed, with an Undo button per change
 * (ntfy shows at most three). Changes an approval made are told by the approval's own notice.
 */
import { type ActionJournal, type JournalEntry, undoable } from "./action_journal.ts";
import { changeLine } from "./notice_text.ts";
import type { ApprovalNotifier } from "./approval_ports.ts";
import type { Notification } from "../core/notifier.ts";

/** ntfy shows at most three action buttons. */
const maxButtons = 3;

/** What the notices are made of. */
export interface ChangeNoticeParts {
  journal: ActionJournal;
  /** Sends through the outbox (absent: nothing is sent). */
  notify?: ApprovalNotifier;
  /** A single-use Undo button URL for journal entry `id`. */
  undoUrl: (id: number) => string;
  /** Masks known secrets in text that leaves the machine. */
  mask: (text: string) => string;
  /** False when approval notices are off (`approvals.notify`). */
  enabled: () => boolean;
  /** Where the changes are listed after login (the dashboard's approvals page). */
  link?: () => string;
}

/** The command line that undoes the changes `ids` (oldest first), with their real ids. */
export function undoLine(ids: readonly number[]): string {
  const undo = (id: number) => `radar undo ${id}`;
  if (ids.length <= maxButtons) return `Undo: ${ids.map(undo).join(" · ")}`;
  return `Undo: ${undo(ids[0])} … ${
    undo(ids.at(-1)!)
  } (one at a time; radar undo --list shows them)`;
}

/** Tells the user what a run changed (see the module comment). */
export class ChangeNotices {
  constructor(private readonly parts: ChangeNoticeParts) {}

  /** The journal's newest id now: changes after it belong to the run that starts. */
  mark(): number {
    return this.parts.journal.recent(1)[0]?.id ?? 0;
  }

  /** Sends one notice for the changes run `conversationId` made after `mark` on its own. */
  async tell(mark: number, conversationId: number): Promise<void> {
    const { notify, enabled } = this.parts;
    if (!notify || !enabled()) return;
    const changes = this.parts.journal.recent(200).filter((entry) =>
      entry.id > mark && entry.conversationId === conversationId &&
      entry.approvalId === undefined && undoable(entry)
    ).reverse();
    if (!changes.length) return;
    await notify(this.notice(changes), `changes:${changes.map((entry) => entry.id).join(",")}`);
  }

  /**
   * The notice for `changes` (oldest first): each change's number, kind and tool — its paths came
   * from what the run read, so they stay behind the link (`radar undo --list`, the dashboard).
   */
  notice(changes: readonly JournalEntry[]): Notification {
    const { mask, undoUrl } = this.parts;
    const count = changes.length;
    return {
      title: `Radar changed ${count} file${count === 1 ? "" : "s"}`,
      message: mask(
        [
          ...changes.map(changeLine),
          "Which files: radar undo --list, or the approvals page.",
          undoLine(changes.map((entry) => entry.id)),
        ].join("\n"),
      ),
      click: this.parts.link?.(),
      priority: "default",
      buttons: changes.slice(-maxButtons).map((entry) => ({
        label: count === 1 ? "Undo" : `Undo #${entry.id}`,
        url: undoUrl(entry.id),
      })),
    };
  }
}
