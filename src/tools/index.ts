/** Every built-in tool, built from shared dependencies. One file per tool beside this one. */
import type { Tool } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import type { MonitorRegistry, TaskScheduler } from "../core/schedule_ports.ts";
import { execTool } from "./exec.ts";
import { fetchUrlTool } from "./fetch_url.ts";
import { listDirectoryTool } from "./list_directory.ts";
import { notifyTool } from "./notify.ts";
import { pdfExtractTool } from "./pdf_extract.ts";
import { comicInfoTool } from "./comic_info.ts";
import { readFileTool } from "./read_file.ts";
import { recallTool } from "./recall.ts";
import { rememberTool } from "./remember.ts";
import { webSearchTool } from "./web_search.ts";
import { weatherTool } from "./weather.ts";
import { writeFileTool } from "./write_file.ts";
import { moveFileTool } from "./move_file.ts";
import { scheduleTaskTool } from "./schedule_task.ts";
import { monitorUrlTool } from "./monitor_url.ts";
import {
  cancelTaskTool,
  listMonitorsTool,
  listTasksTool,
  removeMonitorTool,
} from "./schedule_rows.ts";
import { emailTools } from "./email.ts";
import { calendarTool } from "./calendar.ts";
import { useSkillTool } from "./use_skill.ts";
import { githubTool } from "./github.ts";
import { browserTool } from "./browser.ts";
import { mailOrigin } from "./destinations.ts";

/**
 * Builds the built-in tools enabled by config; `money` (money.ts) comes after them, registered by
 * the agent stack once money is in use, its module and money's loaded then.
 */
export function builtinTools(deps: ToolDependencies): Tool[] {
  return [
    rememberTool(deps),
    recallTool(deps),
    ...(deps.config.tools.exec.enabled ? [execTool(deps)] : []),
    readFileTool(deps),
    writeFileTool(deps),
    moveFileTool(deps),
    listDirectoryTool(deps),
    notifyTool(deps),
    pdfExtractTool(deps),
    ...(deps.comicArchives ? [comicInfoTool({ ...deps, comicArchives: deps.comicArchives })] : []),
    webSearchTool(deps),
    fetchUrlTool(deps),
    weatherTool(deps),
    ...(deps.tasks ? scheduleTools(deps, deps.tasks) : []),
    ...(deps.monitors ? monitorTools(deps.monitors) : []),
    ...(deps.mail
      ? emailTools({
        mail: deps.mail,
        timeZone: deps.config?.radar.timezone || undefined,
        serverOf: (account) => mailOrigin(deps.config, account),
      })
      : []),
    ...(deps.calendar ? [calendarTool({ ...deps, calendar: deps.calendar })] : []),
    ...(deps.skills ? [useSkillTool({ skills: deps.skills })] : []),
    ...(deps.github ? [githubTool({ github: deps.github })] : []),
    ...(deps.browser
      ? [browserTool({
        ...deps.browser,
        callMs: () => deps.config.browser.call_seconds * 1000,
        visionModel: deps.visionModel,
        visionModelName: deps.config.llm.models.vision.model || undefined,
        privatePages: !!deps.config.browser.profile || deps.config.browser.allow_private ||
          deps.config.browser.allowed_hosts.length > 0,
        profileKept: !!deps.config.browser.profile,
      })]
      : []),
  ];
}

/** Tools over scheduled tasks (never always-on: offered when a message is about schedules). */
function scheduleTools(deps: ToolDependencies, tasks: TaskScheduler): Tool[] {
  const timeZone = deps.config.radar.timezone || undefined;
  const scheduling = { tasks, timeZone, now: () => deps.clock.now() };
  return [scheduleTaskTool(scheduling), listTasksTool(scheduling), cancelTaskTool(scheduling)];
}

/** Tools over URL monitors (never always-on: offered when a message is about pages). */
function monitorTools(monitors: MonitorRegistry): Tool[] {
  return [monitorUrlTool, listMonitorsTool, removeMonitorTool].map((make) => make({ monitors }));
}
