/** Shell completion scripts generated from the commander command tree (bash, zsh, fish). */
import type { Command } from "commander";

/** Shells `radar completions` knows. */
export const completionShells = ["bash", "zsh", "fish"] as const;

/** One command path ("" for the program, "plugin list" …) and the words that may follow it. */
interface CompletionNode {
  path: string;
  subcommands: string[];
  options: string[];
}

/** Every command path of the tree with its subcommand names and long options. */
function completionNodes(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const subcommands = command.commands.map((child) => child.name());
    if (!path) subcommands.push("help"); // commander's implicit `help [command]`
    const options = [
      ...command.options.map((option) => option.long).filter((long) => long !== undefined),
      "--help",
    ];
    nodes.push({ path, subcommands, options: [...new Set(options)] });
    for (const child of command.commands) {
      visit(child, path ? `${path} ${child.name()}` : child.name());
    }
  };
  visit(program, "");
  return nodes;
}

/** A bash completion script (also sourced by zsh through bashcompinit). */
export function bashCompletion(program: Command): string {
  const entries = completionNodes(program).map((node) =>
    `    [${JSON.stringify(`radar${node.path ? ` ${node.path}` : ""}`)}]=${
      JSON.stringify([...node.subcommands, ...node.options].join(" "))
    }`
  );
  return `# radar completion for bash: source <(radar completions bash)
_radar() {
  local -A words=(
${entries.join("\n")}
  )
  local path=radar word index
  for ((index = 1; index < COMP_CWORD; index++)); do
    word="\${COMP_WORDS[index]}"
    if [[ -n "\${words["\$path \$word"]+set}" ]]; then path="\$path \$word"; fi
  done
  COMPREPLY=($(compgen -W "\${words["\$path"]}" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -F _radar radar
`;
}

/** A zsh completion script: the bash one through zsh's bashcompinit. */
export function zshCompletion(program: Command): string {
  return `# radar completion for zsh: source <(radar completions zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program).split("\n").slice(1).join("\n")}`;
}

/** A fish completion script. */
export function fishCompletion(program: Command): string {
  const lines = ["# radar completion for fish: radar completions fish | source"];
  for (const node of completionNodes(program)) {
    const words = node.path ? node.path.split(" ") : [];
    const condition = words.length
      ? `__fish_seen_subcommand_from ${words.at(-1)}`
      : "__fish_use_subcommand";
    if (node.subcommands.length) {
      lines.push(`complete -c radar -f -n '${condition}' -a '${node.subcommands.join(" ")}'`);
    }
    for (const option of node.options) {
      lines.push(`complete -c radar -f -n '${condition}' -l ${option.slice(2)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
