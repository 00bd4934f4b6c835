import { applyDecorators, HttpStatus, RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtension, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { EXAMPLE_IDS, ProblemView, QueuedJobView } from '@svc/contracts';

/** A download: its media type and the first lines of a real file as the example. */
export interface FileBody {
  file: string;
  example: string;
}

/** Problem statuses a route may answer besides the ones its shape implies (see `withProblemResponses`). */
export type ExtraProblem = 400 | 403 | 404 | 409 | 413 | 415 | 502 | 503;

export interface RouteDoc {
  summary: string;
  description?: string;
  /** The success body: a view class, `[ViewClass]` for a list, a file, or nothing (204). */
  ok?: Type<unknown> | [Type<unknown>] | FileBody;
  /** An example success body, where the view's property examples would not show a realistic one. */
  example?: unknown;
  problems?: readonly ExtraProblem[];
}

/** What a queued job answers: its id and `queued`. */
const QUEUED_EXAMPLE = { id: EXAMPLE_IDS.job, status: 'queued' };

/** Problems of every route that queues a job: a payload naming an unknown row, an identical active job, no broker. */
const QUEUE_PROBLEMS = [403, 404, 409, 503] as const;

/** Documents a route that queues a job: it answers the job's id and `queued` (QueuedJobView). */
export function QueueDoc(summary: string): MethodDecorator {
  return ApiDoc({ summary, ok: QueuedJobView, example: QUEUED_EXAMPLE, problems: QUEUE_PROBLEMS });
}

export const EXTRA_PROBLEMS_EXTENSION = 'x-problems';

/**
 * Documents a route: its summary, its success response (status read from the route itself: 201 for
 * POST unless `@HttpCode` says otherwise) and the problems specific to it. Put it above the route's
 * method decorator (`@Get`, `@Post`...), so that it sees the method and status.
 */
export function ApiDoc(doc: RouteDoc): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    const declared = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    const status = declared ?? (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    const decorators: MethodDecorator[] = [
      ApiOperation({ summary: doc.summary, ...(doc.description ? { description: doc.description } : {}) }),
    ];
    const ok = doc.ok;
    if (ok === undefined) {
      decorators.push(ApiResponse({ status, description: successText(status) }));
    } else if (isFile(ok)) {
      decorators.push(
        ApiResponse({
          status,
          description: 'The file, streamed',
          content: { [ok.file]: { schema: { type: 'string', format: 'binary' }, example: ok.example } },
        }),
      );
    } else {
      const type = Array.isArray(ok) ? ok[0] : ok;
      decorators.push(
        ApiResponse({
          status,
          description: successText(status),
          type,
          isArray: Array.isArray(ok),
          ...(doc.example !== undefined ? { example: doc.example } : {}),
        }),
      );
    }
    if (doc.problems?.length) decorators.push(ApiExtension(EXTRA_PROBLEMS_EXTENSION, [...doc.problems]));
    applyDecorators(...decorators)(target, key, descriptor);
  };
}

function isFile(ok: RouteDoc['ok']): ok is FileBody {
  return typeof ok === 'object' && ok !== null && !Array.isArray(ok) && 'file' in ok;
}

function successText(status: number): string {
  if (status === 201) return 'Created';
  if (status === 202) return 'Accepted';
  if (status === 204) return 'No content';
  return 'OK';
}

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Malformed request (for example a body that is not JSON)',
  401: 'Missing or refused credential, or a route that needs one',
  403: "The caller's role is below the route's floor, or below what this request asks for",
  404: 'No such resource, or one the caller may not see',
  409: 'Conflicts with the current state (see the problem detail)',
  413: 'Body or upload over its limit',
  415: 'Unsupported media type',
  422: 'A field failed validation (`errors` lists them)',
  429: 'Rate limit or quota reached (`Retry-After` says when to retry)',
  502: 'An upstream service refused or failed',
  503: 'A dependency (database, broker) is unavailable',
};

interface OperationLike {
  parameters?: { in?: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-role-floor'?: string;
  [EXTRA_PROBLEMS_EXTENSION]?: number[];
}

/**
 * Adds the problem responses every operation can give, derived from its shape: 401 and 429 on every
 * route (the credential gate and the rate limiter run first), 403 above the guest floor, 404 with a
 * path parameter, 422 with a body or query, 413 with a body; plus the ones its `@ApiDoc` lists.
 */
export function withProblemResponses(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item) as OperationLike[]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const statuses = new Set<number>([401, 429]);
      if (operation['x-role-floor'] && operation['x-role-floor'] !== 'guest') statuses.add(403);
      if (path.includes('{')) statuses.add(404);
      const query = (operation.parameters ?? []).some((p) => p.in === 'query');
      if (operation.requestBody || query) statuses.add(422);
      if (operation.requestBody) {
        statuses.add(413);
        statuses.add(415);
      }
      for (const status of operation[EXTRA_PROBLEMS_EXTENSION] ?? []) statuses.add(status);
      delete operation[EXTRA_PROBLEMS_EXTENSION];
      for (const status of [...statuses].sort((a, b) => a - b)) {
        operation.responses[String(status)] = {
          description: PROBLEM_TEXT[status] ?? 'Problem',
          content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemView) } } },
        };
      }
    }
  }
  // Problems may carry extension members (`existing_job_id`, `allowed_queue`, `retry_after`...).
  const problem = document.components?.schemas?.[ProblemView.name] as
    { additionalProperties?: boolean } | undefined;
  if (problem) problem.additionalProperties = true;
  return document;
}
