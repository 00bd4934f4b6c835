import { BrokerUnavailableError } from '../messaging/message-broker';

/** SQLSTATE classes and codes that mean "the server went away", not "the statement was wrong". */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is closed',
  'the database system is starting up',
  'the database system is shutting down',
];

/**
 * Whether an error means the database could not be reached (restart, failover, network), so the
 * work can be retried once it is back, rather than a failure of the work itself.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    message?: unknown;
    driverError?: { code?: unknown; message?: unknown };
  };
  if (e === null || typeof e !== 'object') return false;
  for (const candidate of [e, e.driverError]) {
    if (candidate === undefined || candidate === null) continue;
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (UNAVAILABLE_MESSAGES.some((fragment) => message.includes(fragment))) return true;
  }
  return false;
}

/** The database or the broker could not be reached: the work is retried once they are back. */
export function isInfrastructureUnavailable(error: unknown): boolean {
  return error instanceof BrokerUnavailableError || isDatabaseUnavailable(error);
}
