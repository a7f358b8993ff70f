/** Radar's entry point: the hidden plugin-host and PDF-reader modes (compiled binary), else the CLI. */
import { pluginHostFlag } from "./src/sandbox/host_flag.ts";
import { pdfExtractFlag } from "./src/adapters/pdf/pdf_flag.ts";

if (import.meta.main) {
  if (Deno.args[0] === pluginHostFlag) {
    // Loaded lazily so a plugin host process never evaluates the CLI and its dependencies.
    const { runPluginHost } = await import("./src/sandbox/host_process.ts");
    await runPluginHost();
  } else if (Deno.args[0] === pdfExtractFlag) {
    const { runPdfExtractProcess } = await import("./src/adapters/pdf/pdf_extract_process.ts");
    await runPdfExtractProcess();
  } else {
    const { runCli } = await import("./src/cli/program.ts");
    const { terminalIo } = await import("./src/cli/terminal_io.ts");
    const code = await runCli(Deno.args, terminalIo());
    Deno.exit(code);
  }
}
