/**
 * The tool-offering bench's data: plain requests as people type them (each with the tool it
 * needs) and 50 plugin-like tools installed beside the built-in ones.
 */

/** One request and the tool it cannot be done without. */
export interface OfferingCase {
  message: string;
  needs: string;
}

/** Requests for the built-in tools (every one covered), phrased the way people talk. */
export const builtinCases: OfferingCase[] = [
  { message: "How much free disk space do I have?", needs: "exec" },
  { message: "Summarize ~/Documents/meeting-notes.md", needs: "read_file" },
  { message: "Jot down 'call mom' in ~/todo.md", needs: "write_file" },
  { message: "Which reminders are set up?", needs: "list_tasks" },
  { message: "Stop the Monday summary", needs: "cancel_task" },
  { message: "Remember that my sister's birthday is March 3rd", needs: "remember" },
  { message: "I'm allergic to peanuts, keep that in mind", needs: "remember" },
  { message: "Note that I prefer short answers", needs: "remember" },
  { message: "What's my wifi password again? I told you last week", needs: "recall" },
  { message: "Do you know where I parked?", needs: "recall" },
  { message: "What did I say my boss's name was?", needs: "recall" },
  { message: "Is docker running?", needs: "exec" },
  { message: "What's using all my CPU right now?", needs: "exec" },
  { message: "Check which version of python is installed", needs: "exec" },
  { message: "git status in ~/code/radar", needs: "exec" },
  { message: "How long has this machine been up?", needs: "exec" },
  { message: "What's in ~/.bashrc?", needs: "read_file" },
  { message: "Show me the contents of notes.txt", needs: "read_file" },
  { message: "Open ~/recipes/lasagna.md and tell me the oven temperature", needs: "read_file" },
  { message: "What does my ssh config say about the pi?", needs: "read_file" },
  { message: "Add 'buy milk' to my shopping list in ~/lists/shopping.md", needs: "write_file" },
  { message: "Create a file hello.txt that says hi", needs: "write_file" },
  { message: "Save this poem to ~/poems/autumn.txt", needs: "write_file" },
  { message: "Put today's standup notes into ~/work/standup.md", needs: "write_file" },
  { message: "What's in my Downloads folder?", needs: "list_directory" },
  { message: "Which files did I change in ~/projects today?", needs: "list_directory" },
  { message: "How big are the videos in ~/Movies?", needs: "list_directory" },
  { message: "Show me what's on my desktop", needs: "list_directory" },
  { message: "Ping me on my phone when the backup is done", needs: "notify" },
  { message: "Send me an alert saying the oven is ready", needs: "notify" },
  { message: "Buzz my phone with 'stand up and stretch'", needs: "notify" },
  { message: "What is the invoice total in ~/Downloads/invoice-0423.pdf?", needs: "pdf_extract" },
  { message: "Summarize the paper ~/papers/attention.pdf", needs: "pdf_extract" },
  { message: "How many pages does the lease agreement PDF have?", needs: "pdf_extract" },
  { message: "Who won the game last night?", needs: "web_search" },
  { message: "Look up the opening hours of the Louvre", needs: "web_search" },
  { message: "What's the latest news about the Mars mission?", needs: "web_search" },
  { message: "Find a good recipe for banana bread online", needs: "web_search" },
  { message: "When does the new iPhone come out?", needs: "web_search" },
  { message: "Read https://example.com/blog/post-42 and give me the gist", needs: "fetch_url" },
  { message: "What does this article say? https://news.example.org/a/123", needs: "fetch_url" },
  { message: "Get the text of https://docs.example.dev/install", needs: "fetch_url" },
  {
    message: "Fill in the contact form on https://example.org/contact with my name and email",
    needs: "browser",
  },
  { message: "Click the download button on my electricity account page", needs: "browser" },
  {
    message: "Take a screenshot of https://example.com and tell me what it shows",
    needs: "browser",
  },
  { message: "Renew my library books at https://library.example.org", needs: "browser" },
  { message: "Every Monday at 9am, summarize my week", needs: "schedule_task" },
  { message: "Remind me tomorrow at 8 to call the dentist", needs: "schedule_task" },
  { message: "In two hours, tell me to take the laundry out", needs: "schedule_task" },
  { message: "Check my inbox every 2 hours on weekdays", needs: "schedule_task" },
  { message: "Weekdays at 7:30, give me the weather", needs: "schedule_task" },
  { message: "On the 1st of every month remind me to pay rent", needs: "schedule_task" },
  { message: "Wake me up with a news digest each morning", needs: "schedule_task" },
  { message: "What have I got scheduled?", needs: "list_tasks" },
  { message: "Show my recurring jobs", needs: "list_tasks" },
  { message: "What reminders do I have this week?", needs: "list_tasks" },
  { message: "Cancel the rent reminder", needs: "cancel_task" },
  { message: "I don't need the morning digest anymore, delete it", needs: "cancel_task" },
  { message: "Watch https://shop.example/espresso for price drops", needs: "monitor_url" },
  { message: "Let me know when the concert page changes", needs: "monitor_url" },
  { message: "Keep an eye on the visa appointment page for me", needs: "monitor_url" },
  { message: "Which pages are you watching?", needs: "list_monitors" },
  { message: "What sites am I tracking?", needs: "list_monitors" },
  { message: "Stop watching the espresso page", needs: "remove_monitor" },
  { message: "Don't track the concert site anymore", needs: "remove_monitor" },
  { message: "Forget about monitoring the visa page", needs: "remove_monitor" },
];

/** Requests for installed plugin tools (ranking must bring these forward over built-ins). */
export const pluginCases: OfferingCase[] = [
  { message: "Turn off the living room lights", needs: "home_lights" },
  { message: "Set the thermostat to 21 degrees", needs: "thermostat_set" },
  { message: "Play some jazz on Spotify", needs: "spotify_play" },
  { message: "Open a GitHub issue about the login bug", needs: "github_create_issue" },
  { message: "What's on my calendar tomorrow?", needs: "calendar_list_events" },
  { message: "How much is 100 dollars in euros?", needs: "currency_convert" },
  { message: "Translate 'good morning' into Japanese", needs: "translate_text" },
  { message: "Where is my Amazon package?", needs: "package_track" },
  { message: "Post 'deploy done' to the #ops Slack channel", needs: "slack_post" },
  { message: "Log a 5k run for today", needs: "fitness_log" },
];

/** One installed plugin tool: name, one-line description, keywords, parameter names. */
export interface PluginToolData {
  name: string;
  description: string;
  keywords: string[];
  parameters: string[];
}

const tool = (
  name: string,
  description: string,
  keywords: string,
  parameters: string,
): PluginToolData => ({
  name,
  description,
  keywords: keywords.split(" "),
  parameters: parameters.split(" "),
});

/** 50 plugin-like tools with realistic names and descriptions. */
export const pluginTools: PluginToolData[] = [
  tool(
    "home_lights",
    "Turn smart lights on or off, or dim them",
    "light lamp dim room",
    "room state",
  ),
  tool(
    "thermostat_set",
    "Set the heating target temperature",
    "heating temperature warm",
    "degrees",
  ),
  tool("spotify_play", "Play a song, album or playlist on Spotify", "music song play", "query"),
  tool("spotify_pause", "Pause Spotify playback", "music pause", "device"),
  tool(
    "github_create_issue",
    "Create an issue in a GitHub repository",
    "github bug issue",
    "repo title body",
  ),
  tool("github_list_prs", "List open pull requests of a repository", "github pull review", "repo"),
  tool(
    "calendar_list_events",
    "List calendar events in a date range",
    "calendar meeting agenda",
    "from to",
  ),
  tool(
    "calendar_add_event",
    "Add an event to the calendar",
    "calendar meeting appointment",
    "title start end",
  ),
  tool("gmail_search", "Search email messages in Gmail", "email mail inbox", "query"),
  tool("gmail_send", "Send an email from Gmail", "email mail send", "to subject body"),
  tool("slack_post", "Post a message to a Slack channel", "slack channel chat", "channel text"),
  tool("slack_read", "Read recent messages of a Slack channel", "slack channel unread", "channel"),
  tool("todoist_add", "Add a task to Todoist", "todo todoist checklist", "content due"),
  tool("notion_search", "Search pages in Notion", "notion wiki workspace", "query"),
  tool(
    "currency_convert",
    "Convert an amount between currencies",
    "currency dollar euro exchange",
    "amount from to",
  ),
  tool(
    "unit_convert",
    "Convert between units (km, miles, kg, lb…)",
    "unit convert mile kilometer",
    "value from to",
  ),
  tool("calculator", "Evaluate an arithmetic expression", "math calculate sum", "expression"),
  tool(
    "translate_text",
    "Translate text into another language",
    "translate language",
    "text target",
  ),
  tool(
    "stock_quote",
    "Get the current price of a stock ticker",
    "stock share ticker market",
    "symbol",
  ),
  tool("crypto_price", "Get the price of a cryptocurrency", "bitcoin ethereum crypto", "coin"),
  tool("rss_read", "Read the newest items of an RSS feed", "rss feed blog", "url"),
  tool("youtube_transcript", "Get the transcript of a YouTube video", "youtube video", "url"),
  tool("wikipedia_lookup", "Summary of a Wikipedia article", "wikipedia encyclopedia", "title"),
  tool("dictionary_define", "Definition of an English word", "define meaning word", "word"),
  tool(
    "docker_logs",
    "Show the logs of a Docker container",
    "docker container log",
    "container lines",
  ),
  tool(
    "k8s_pods",
    "List Kubernetes pods in a namespace",
    "kubernetes kubectl pod cluster",
    "namespace",
  ),
  tool("backup_run", "Start a Restic backup of a folder", "backup restic snapshot", "path"),
  tool(
    "photo_search",
    "Search the photo library by content or date",
    "photo picture image",
    "query",
  ),
  tool("lyrics_find", "Find the lyrics of a song", "lyrics song", "title artist"),
  tool(
    "maps_directions",
    "Driving or transit directions between places",
    "directions route map",
    "from to mode",
  ),
  tool(
    "recipe_search",
    "Search a recipe database by ingredient",
    "recipe cook ingredient",
    "ingredients",
  ),
  tool(
    "fitness_log",
    "Log a workout (run, ride, gym) to the fitness diary",
    "workout run exercise",
    "activity distance",
  ),
  tool("sleep_stats", "Sleep duration and quality from the watch", "sleep watch", "nights"),
  tool(
    "bank_balance",
    "Current balance of a bank account",
    "bank balance account money",
    "account",
  ),
  tool(
    "expense_add",
    "Record an expense in the budget",
    "expense spending budget",
    "amount category",
  ),
  tool(
    "invoice_create",
    "Create an invoice PDF for a client",
    "invoice bill client",
    "client items",
  ),
  tool("pdf_merge", "Merge several PDF files into one", "pdf merge combine", "inputs output"),
  tool("image_resize", "Resize an image file", "image resize photo", "path width"),
  tool("ocr_image", "Extract text from an image with OCR", "ocr scan image text", "path"),
  tool(
    "screenshot_take",
    "Take a screenshot of the screen",
    "screenshot screen capture",
    "display",
  ),
  tool("clipboard_read", "Read the current clipboard text", "clipboard paste copy", "format"),
  tool("qr_generate", "Generate a QR code image for text", "qr code", "text"),
  tool("password_generate", "Generate a random password", "password random secure", "length"),
  tool(
    "obsidian_append",
    "Append text to a note in the Obsidian vault",
    "obsidian vault note",
    "note text",
  ),
  tool("jira_create_ticket", "Create a Jira ticket", "jira ticket sprint", "project summary"),
  tool(
    "zoom_schedule",
    "Schedule a Zoom meeting and return the link",
    "zoom meeting call video",
    "topic start",
  ),
  tool(
    "package_track",
    "Track a parcel by carrier and tracking number",
    "package parcel delivery shipment",
    "tracking",
  ),
  tool("air_quality", "Air quality index for a city", "air pollution aqi", "city"),
  tool(
    "speedtest_run",
    "Measure internet download and upload speed",
    "speed internet bandwidth",
    "server",
  ),
  tool("ha_sensor", "Read a Home Assistant sensor value", "sensor home humidity", "entity"),
];
