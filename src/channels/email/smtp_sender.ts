/**
 * Radar's mail out, through the configured SMTP server (npm nodemailer, loaded on first use):
 * implicit TLS, STARTTLS (required), or plain text to a loopback host only; a login when a user
 * is set. Answers keep the thread (In-Reply-To and References), and each message's Message-ID is
 * derived from Radar's id for it, so a retry after a lost answer is recognisably the same mail.
 */
import type { Transporter } from "nodemailer";
import type { OutgoingMessage, SendResult } from "../../core/channel.ts";
import { isLoopbackHost } from "../../adapters/network/address_policy.ts";
import { firstLine } from "../../core/errors.ts";

/** The SMTP server and Radar's address. */
export interface SmtpSettings {
  host: string;
  port: number;
  tls: "implicit" | "starttls" | "none";
  user: string;
  /** Read when the first mail is sent. */
  password: () => Promise<string>;
  from: string;
  timeoutMs: number;
}

/** Sends mail through one SMTP server. */
export class SmtpSender {
  #transport?: Transporter;

  constructor(private readonly settings: SmtpSettings) {}

  /** Sends `message` to `message.chatId` (an address); never throws. */
  async send(message: OutgoingMessage): Promise<SendResult> {
    const { settings } = this;
    if (settings.tls === "none" && !isLoopbackHost(settings.host)) {
      return {
        sent: false,
        error: `SMTP tls "none" is allowed only for a loopback host, not ${settings.host}`,
        permanent: true,
      };
    }
    let transport: Transporter;
    try {
      transport = await this.#transporter();
    } catch (error) {
      return { sent: false, error: `SMTP: ${firstLine(error)}` };
    }
    const domain = settings.from.slice(settings.from.lastIndexOf("@") + 1);
    try {
      const info = await transport.sendMail({
        from: settings.from,
        to: message.chatId,
        subject: message.subject ?? "Radar",
        text: message.text,
        messageId: `<radar.${message.id}.${Date.now().toString(36)}@${domain}>`,
        ...(message.replyTo ? { inReplyTo: message.replyTo, references: message.replyTo } : {}),
      });
      return { sent: true, externalId: info.messageId };
    } catch (error) {
      const smtp = error as { responseCode?: number; code?: string };
      const permanent = (smtp.responseCode ?? 0) >= 500 || smtp.code === "EENVELOPE";
      return {
        sent: false,
        error: `SMTP ${settings.host}:${settings.port}: ${firstLine(error)}`,
        permanent,
      };
    }
  }

  /**
   * Connects and, when a user is set, logs in, sending nothing (nodemailer's `verify()`), as
   * `radar doctor` checks the server; throws one line naming the server (nodemailer's error, with
   * its `code` and `responseCode`, as the cause).
   */
  async verify(): Promise<void> {
    const { settings } = this;
    if (settings.tls === "none" && !isLoopbackHost(settings.host)) {
      throw new Error(`SMTP tls "none" is allowed only for a loopback host, not ${settings.host}`);
    }
    const transport = await this.#transporter();
    try {
      await transport.verify();
    } catch (error) {
      throw new Error(`SMTP ${settings.host}:${settings.port}: ${firstLine(error)}`, {
        cause: error,
      });
    }
  }

  /** Closes the connection pool. */
  close(): void {
    this.#transport?.close();
  }

  async #transporter(): Promise<Transporter> {
    if (this.#transport) return this.#transport;
    const { default: nodemailer } = await import("nodemailer");
    const { settings } = this;
    const password = settings.user ? await settings.password() : "";
    this.#transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.tls === "implicit",
      requireTLS: settings.tls === "starttls",
      ignoreTLS: settings.tls === "none",
      ...(settings.user ? { auth: { user: settings.user, pass: password } } : {}),
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
    return this.#transport;
  }
}
