/**
 * Where the file tools change files without a question: the scratch folder and
 * `tools.files.writable_roots`. Anywhere else needs a yes: the person in chat, a standing grant,
 * or, in a run without a person, a pending approval (the run's `confirm` defers the question).
 */
import type { ToolContext } from "../../core/tool.ts";
import { checkedRoots, ensureScratchFolder, type FileAccessDependencies } from "./file_access.ts";
import { isInside, type PathGuard } from "./path_guard.ts";

/**
 * Asks for a yes when any of `paths` (canonical) lies outside the writable folders. Returns the
 * refusal, or undefined to go ahead. `action` names the change ("write ~/x", "move ~/a to ~/b").
 */
export async function askOutsideWritableRoots(
  deps: FileAccessDependencies,
  guard: PathGuard,
  paths: readonly string[],
  action: string,
  context: ToolContext,
): Promise<string | undefined> {
  const roots = [
    ensureScratchFolder(deps),
    ...checkedRoots(guard, deps.config.tools.files.writable_roots),
  ];
  const outside = paths.filter((path) => !roots.some((root) => isInside(path, root, true)));
  if (!outside.length) return undefined;
  const listed = roots.map((root) => guard.display(root)).join(", ");
  if (!context.confirm) {
    return `Cannot ${action}: outside the folders Radar writes without asking (${listed}; tools.files.writable_roots), and nobody can say yes in a ${context.kind} run. Write it in the scratch folder, or ask in \`radar chat\`.`;
  }
  const yes = await context.confirm(`Radar wants to ${action} (outside ${listed}). Allow?`);
  return yes ? undefined : `The user declined: ${action}. Do not retry it; ask what to do instead.`;
}
