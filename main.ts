/** Radar's entry point: the hidden plugin-host and PDF-reader modes (compiled binary), else the CLI. */
import { importLazily } from "./src/runtime/lazy_import.ts";
import { pluginHostFlag } from "./src/sandbox/host_flag.ts";
import { pdfExtractFlag } from "./src/adapters/pdf/pdf_flag.ts";

if (import.meta.main) {
  if (Deno.args[0] === pluginHostFlag) {
    // Loaded lazily so a plugin host process never evaluates the CLI and its dependencies.
    const { runPluginHost } = await importLazily<typeof import("./src/sandbox/host_process.ts")>(
      new URL("./src/sandbox/host_process.ts", import.meta.url),
    );
    await runPluginHost();
  } else if (Deno.args[0] === pdfExtractFlag) {
    const { runPdfExtractProcess } = await importLazily<
      typeof import("./src/adapters/pdf/pdf_extract_process.ts")
    >(new URL("./src/adapters/pdf/pdf_extract_process.ts", import.meta.url));
    await runPdfExtractProcess();
  } else {
    const { runCli } = await importLazily<typeof import("./src/cli/program.ts")>(
      new URL("./src/cli/program.ts", import.meta.url),
    );
    const { terminalIo } = await importLazily<typeof import("./src/cli/terminal_io.ts")>(
      new URL("./src/cli/terminal_io.ts", import.meta.url),
    );
    const code = await runCli(Deno.args, terminalIo());
    Deno.exit(code);
  }
}
