/**
 * Whether Telegram and Matrix answer with the configured credentials, as `radar doctor` asks:
 * Telegram's `getMe` on `api_root` (grammY, as the channel uses it), Matrix's
 * `/account/whoami` on the homeserver (matrix-js-sdk; with a password, a login first and a logout
 * after, on a device of its own, so the daemon's session is left alone). Each library is loaded
 * here, when the check runs.
 */
import { networkReason } from "./network_reason.ts";
import { type Verdict, verdict } from "./verdict.ts";

/** How a service check runs. */
export interface ServiceCall {
  timeoutMs: number;
  fetch: typeof fetch;
}

/** Telegram's verdict, and the bot's @name when it answered. */
export async function telegramServiceVerdict(
  input: { token: string; apiRoot: string } & ServiceCall,
): Promise<{ verdict: Verdict; botName?: string }> {
  const apiRoot = input.apiRoot.replace(/\/+$/, "");
  const { Api, GrammyError, HttpError } = await import("grammy/web");
  const api = new Api(input.token, {
    apiRoot,
    fetch: input.fetch,
    timeoutSeconds: Math.max(1, Math.ceil(input.timeoutMs / 1000)),
  });
  try {
    const signal = AbortSignal.timeout(input.timeoutMs);
    const me = await api.getMe(signal as Parameters<typeof api.getMe>[0]);
    const botName = me.username ? `@${me.username}` : me.first_name;
    return {
      verdict: verdict("telegram", "ok", `${botName} answers at ${apiRoot} (getMe)`),
      botName,
    };
  } catch (error) {
    if (error instanceof GrammyError) {
      const said = `${error.error_code} ${error.description}`.trim();
      if (error.error_code === 401 || error.error_code === 404) {
        return {
          verdict: verdict("telegram", "fail", `${apiRoot} refused the bot token (${said})`, {
            fix: "copy the token again from @BotFather (/mybots → API Token; a revoked token " +
              "stops working)" + (apiRoot === "https://api.telegram.org"
                ? ""
                : ", and check channels.telegram.api_root"),
          }),
        };
      }
      return {
        verdict: verdict("telegram", "fail", `${apiRoot} answered getMe with ${said}`, {
          fix: "check channels.telegram.api_root (a Bot API server) and try again later",
        }),
      };
    }
    const cause = error instanceof HttpError ? error.error : error;
    return { verdict: unreachable("telegram", apiRoot, cause, "channels.telegram.api_root") };
  }
}

/** What the Matrix check needs: an access token, or a password to log in with. */
export interface MatrixCheck extends ServiceCall {
  homeserver: string;
  userId: string;
  accessToken?: string;
  password?: string;
}

/** Matrix's verdict: whoami with the token (after a login with the password). */
export async function matrixServiceVerdict(input: MatrixCheck): Promise<Verdict> {
  const homeserver = input.homeserver.replace(/\/+$/, "");
  const sdk = await import("matrix-js-sdk");
  const { quiet } = await import("../channels/matrix/matrix_channel.ts");
  // The SDK's ConnectionError keeps only "fetch failed": the network's own reason is kept here.
  let networkError: unknown;
  const fetchFn: typeof fetch = async (...args) => {
    try {
      return await input.fetch(...args);
    } catch (error) {
      networkError = error;
      throw error;
    }
  };
  const client = (accessToken?: string) =>
    sdk.createClient({
      baseUrl: homeserver,
      userId: input.userId,
      accessToken,
      fetchFn,
      logger: quiet,
      localTimeoutMs: input.timeoutMs,
    });
  let token = input.accessToken;
  if (!token) {
    try {
      const login = await client().loginRequest({
        type: "m.login.password",
        identifier: { type: "m.id.user", user: input.userId },
        password: input.password ?? "",
        initial_device_display_name: "radar doctor (logged out again)",
      });
      token = login.access_token;
    } catch (error) {
      if (!isMatrixError(error)) {
        return unreachable(
          "matrix",
          homeserver,
          networkError ?? error,
          "channels.matrix.homeserver",
        );
      }
      return verdict("matrix", "fail", `login as ${input.userId} refused: ${matrixSaid(error)}`, {
        fix: error.httpStatus === 403
          ? "check channels.matrix.user_id and the password"
          : error.httpStatus === 429
          ? "the homeserver limits logins: run `radar doctor` again in a minute"
          : "check channels.matrix.homeserver (its client API) and user_id",
      });
    }
  }
  const session = client(token);
  try {
    const who = await session.whoami();
    if (who.user_id !== input.userId) {
      return verdict(
        "matrix",
        "fail",
        `the access token is ${who.user_id}'s, not channels.matrix.user_id ${input.userId}'s`,
        { fix: `give ${input.userId}'s access token, or set user_id: "${who.user_id}"` },
      );
    }
    const how = input.accessToken ? "access token" : "a password login, logged out again";
    return verdict("matrix", "ok", `${who.user_id} answers at ${homeserver} (whoami; ${how})`);
  } catch (error) {
    if (!isMatrixError(error)) {
      return unreachable("matrix", homeserver, networkError ?? error, "channels.matrix.homeserver");
    }
    if (error.httpStatus === 401) {
      return verdict(
        "matrix",
        "fail",
        `${homeserver} refused the access token (${matrixSaid(error)})`,
        {
          fix: `make a new access token for ${input.userId} (Element: Settings → Help & About; ` +
            "logging that session out ends it), or give password_cmd and Radar logs in",
        },
      );
    }
    return verdict("matrix", "fail", `${homeserver} answered whoami with ${matrixSaid(error)}`, {
      fix: "check channels.matrix.homeserver: the URL of the homeserver's client API",
    });
  } finally {
    if (!input.accessToken) await session.logout().catch(() => {});
  }
}

/** A server that does not answer: which, why, and the key to check. */
function unreachable(check: string, url: string, error: unknown, key: string): Verdict {
  const reason = networkReason(error);
  return verdict(check, "fail", `nothing answers at ${url}: ${reason}`, {
    fix: `check ${key} and the network`,
  });
}

interface MatrixErrorShape {
  httpStatus?: number;
  errcode?: string;
  data?: { error?: string };
}

function isMatrixError(error: unknown): error is MatrixErrorShape & Error {
  return typeof (error as MatrixErrorShape)?.errcode === "string" ||
    typeof (error as MatrixErrorShape)?.httpStatus === "number";
}

function matrixSaid(error: MatrixErrorShape): string {
  return [error.httpStatus, error.errcode, error.data?.error].filter(Boolean).join(" ");
}
