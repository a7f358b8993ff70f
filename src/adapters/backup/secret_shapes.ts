/**
 * Values a copy of the config must not keep (a backup): what a key's or a command-line option's
 * name marks as a credential, and every part of a URL but its origin. The rule: a URL is kept
 * whole only when it is nothing but an origin (scheme, host, port); otherwise its user, password,
 * path, query and fragment go, since any of them can be the credential (`https://u:p@…`,
 * `?key=…`, a private calendar's secret path).
 */

/** Names (config keys, `--options`) whose values are credentials. */
export const credentialName = /(token|api[_-]?key|password|passwd|secret)$/i;

const urlPattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;

/** `text` with every URL in it cut to its origin; `cut` says whether anything was removed. */
export function urlsToOrigins(text: string): { text: string; cut: boolean } {
  let cut = false;
  const out = text.replace(urlPattern, (found) => {
    let url: URL;
    try {
      url = new URL(found);
    } catch {
      cut = true;
      return "";
    }
    const bare = !url.username && !url.password && !url.search && !url.hash &&
      (url.pathname === "" || url.pathname === "/");
    if (bare) return found;
    cut = true;
    return `${url.protocol}//${url.host}`;
  });
  return { text: out, cut };
}

/**
 * A command line without credentials: the value after an option named like one (`--token X`)
 * and of `--api-key=X` blanked, URLs cut to their origin.
 */
export function argvWithoutSecrets(argv: readonly string[]): { argv: string[]; cut: boolean } {
  let cut = false;
  const out = argv.map((word, index) => {
    const previous = index > 0 ? /^--?([\w.-]+)$/.exec(argv[index - 1]) : null;
    if (previous && credentialName.test(previous[1]) && word !== "") {
      cut = true;
      return "";
    }
    const joined = /^(--?([\w.-]+)=)(.+)$/.exec(word);
    if (joined && credentialName.test(joined[2])) {
      cut = true;
      return joined[1];
    }
    const urls = urlsToOrigins(word);
    cut ||= urls.cut;
    return urls.text;
  });
  return { argv: out, cut };
}
