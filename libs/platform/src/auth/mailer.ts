import nodemailer, { Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** SMTP delivery for the e-mail flows; absent (null) when SMTP is not configured. */
export class Mailer {
  private readonly transport: Transporter;

  constructor(private readonly config: AppConfig['smtp'] & { host: string }) {
    this.transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.port === 465,
      auth: config.user !== null ? { user: config.user, pass: config.password ?? '' } : undefined,
      tls: { rejectUnauthorized: config.tlsVerify },
    });
  }

  static fromConfig(config: AppConfig): Mailer | null {
    const smtp = config.smtp;
    if (!smtp.enabled || smtp.host === null) return null;
    return new Mailer({ ...smtp, host: smtp.host });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.config.fromAddr ?? 'no-reply@localhost', ...mail });
  }
}
