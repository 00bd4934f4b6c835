import type { LogFormat } from '../config/app-config';

/**
 * One line a process writes outside its logger (start-up failures, signals, configuration warnings):
 * single-line JSON like every other log line, or a plain line in the text format. Written
 * synchronously to standard error, because these lines often come right before the process exits.
 */
export function writeProcessLine(
  name: string,
  level: 'info' | 'warn' | 'error',
  message: string,
  format: LogFormat = 'json',
  out: NodeJS.WritableStream = process.stderr,
): void {
  const timestamp = new Date().toISOString();
  out.write(
    format === 'text'
      ? `${timestamp} ${level.toUpperCase()} [${name}] ${message}\n`
      : `${JSON.stringify({ level, timestamp, logger: name, message })}\n`,
  );
}
