/** `text` laid out by `deno fmt` with the checkout's settings, as a generated file must read. */
import { join } from "node:path";

/** `deno fmt --ext=EXT -` over `text` in the checkout at `root`; throws what it refused. */
export async function denoFormatted(root: string, text: string, ext: "md" | "ts"): Promise<string> {
  const formatter = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--config", join(root, "deno.json"), `--ext=${ext}`, "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = formatter.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const output = await formatter.output();
  if (!output.success) {
    throw new Error(`deno fmt refused it: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}
