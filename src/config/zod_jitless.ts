/**
 * Zod without its compiled fast path, set before any of Radar's schemas is built (schema.ts and
 * loader.ts import this module first). By default zod compiles a parser (`new Function`) for each
 * object schema on its first parse; a Radar process parses most schemas once or a few times, so
 * compiling costs more than it saves (about 60 ms of CPU in `radar ask`). What a parse accepts
 * and returns is the same either way.
 */
import { z } from "zod";

z.config({ jitless: true });
