import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, PROBLEM_CONTENT_TYPE, ProblemDetails } from '@svc/contracts';
import { Logger } from '../logging/logger';
import { BrokerUnavailableError } from '../messaging/message-broker';
import { isDatabaseUnavailable } from '../resilience/unavailable';
import { problemForCode, problemForStatus, ProblemKind } from './problem-mapping';

/** Turns any thrown value into an RFC 7807 body; unknown errors become a 500 without internals. */
export function toProblem(
  error: unknown,
  instance: string,
  logger: Logger,
  requestId: string,
): ProblemDetails {
  let kind: ProblemKind;
  let detail: string | undefined;
  let extra: Record<string, unknown> = {};
  let errors: ProblemDetails['errors'];
  if (error instanceof DomainError) {
    kind = problemForCode(error.code);
    detail = error.message;
    extra = error.extra;
    if (error.fieldErrors.length > 0) errors = [...error.fieldErrors];
  } else if (error instanceof BrokerUnavailableError) {
    kind = problemForCode('service_unavailable');
    detail = error.message;
  } else if (isDatabaseUnavailable(error)) {
    // A database restart or failover: the client may retry; nothing about the request was wrong.
    kind = problemForCode('service_unavailable');
    detail = 'the database is not reachable; retry shortly';
    logger.warn('database unavailable', {
      request_id: requestId,
      error: error instanceof Error ? error.message : String(error),
    });
  } else if (error instanceof HttpException) {
    kind = problemForStatus(error.getStatus());
    detail = messageOf(error.getResponse()) ?? error.message;
  } else if (isStatusError(error) && error.statusCode < 500) {
    // Fastify's own errors: malformed JSON, bad content type, body too large.
    kind = problemForStatus(error.statusCode);
    detail = error.message;
  } else {
    kind = problemForStatus(500);
    detail = `unexpected error; quote request id ${requestId}`;
    logger.error('unhandled error', {
      request_id: requestId,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
  return {
    type: `/problems/${kind.slug}`,
    title: kind.title,
    status: kind.status,
    ...(detail !== undefined ? { detail } : {}),
    instance,
    ...(errors !== undefined ? { errors } : {}),
    ...extra,
  };
}

function isStatusError(error: unknown): error is Error & { statusCode: number } {
  return error instanceof Error && typeof (error as { statusCode?: unknown }).statusCode === 'number';
}

function messageOf(response: unknown): string | undefined {
  if (typeof response === 'string') return response;
  if (typeof response === 'object' && response !== null) {
    const message = (response as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.join('; ');
  }
  return undefined;
}

export async function sendProblem(reply: FastifyReply, problem: ProblemDetails): Promise<void> {
  if (problem.status === 401) void reply.header('WWW-Authenticate', 'ApiKey, Bearer');
  if (problem.status === 429 && typeof problem['retry_after'] === 'number') {
    void reply.header('Retry-After', String(problem['retry_after']));
  }
  await reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

export function requestInstance(request: FastifyRequest): string {
  return (request.originalUrl ?? request.url).split('?')[0] ?? request.url;
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(error, requestInstance(request), this.logger, String(request.id));
    void sendProblem(reply, problem);
  }
}
