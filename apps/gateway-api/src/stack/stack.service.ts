import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable } from '@nestjs/common';
import { parse } from 'yaml';
import { parseStackFile, PullRequest, RepoEntry, toPullRequest } from '@svc/domain';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';

const PULLS_TTL_MS = 5 * 60 * 1000;

export interface PullsResponse {
  fetched_at: number;
  cached: boolean;
  repos_queried: number;
  pulls: PullRequest[];
  rate_limit_remaining: number | null;
  errors: Record<string, string>;
}

/**
 * The software stack (repositories from the stack file, read at each request) and their open pull
 * requests from the code host's REST API, cached in this process for 5 minutes. A repository that
 * fails is reported in `errors` without failing the others.
 */
@Injectable()
export class StackService {
  private pulls: { at: number; value: PullsResponse } | null = null;

  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  async stack(): Promise<{ repos: RepoEntry[]; thesis_pdf_url: string | null }> {
    const thesis = this.infra.config.thesisPdfPath;
    return {
      repos: await this.repos(),
      thesis_pdf_url: thesis !== null && existsSync(thesis) ? '/v1/stack/thesis.pdf' : null,
    };
  }

  thesisPath(): string | null {
    const thesis = this.infra.config.thesisPdfPath;
    return thesis !== null && existsSync(thesis) ? thesis : null;
  }

  async openPulls(): Promise<PullsResponse> {
    if (this.pulls !== null && Date.now() - this.pulls.at < PULLS_TTL_MS)
      return { ...this.pulls.value, cached: true };
    const repos = await this.repos();
    const base = this.infra.config.codehostApiUrl.replace(/\/+$/, '');
    const token = this.infra.config.codehostToken;
    const pulls: PullRequest[] = [];
    const errors: Record<string, string> = {};
    let remaining: number | null = null;
    for (const repo of repos) {
      try {
        const response = await fetch(`${base}/repos/${repo.slug}/pulls?state=open&per_page=100`, {
          headers: {
            accept: 'application/vnd.github+json',
            'user-agent': 'svc-protein-function',
            ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
          },
          signal: AbortSignal.timeout(10_000),
        });
        const left = response.headers.get('x-ratelimit-remaining');
        if (left !== null && Number.isFinite(Number(left)))
          remaining = remaining === null ? Number(left) : Math.min(remaining, Number(left));
        if (!response.ok) {
          errors[repo.slug] = `the code host answered ${response.status}`;
          continue;
        }
        const items = await response.json();
        if (!Array.isArray(items)) {
          errors[repo.slug] = 'the code host answered with something other than a list';
          continue;
        }
        for (const item of items) {
          const pull = toPullRequest(repo.slug, item);
          if (pull !== null) pulls.push(pull);
        }
      } catch (error) {
        errors[repo.slug] = (error as Error).message;
      }
    }
    const value: PullsResponse = {
      fetched_at: Date.now() / 1000,
      cached: false,
      repos_queried: repos.length,
      pulls,
      rate_limit_remaining: remaining,
      errors,
    };
    this.pulls = { at: Date.now(), value };
    return value;
  }

  private async repos(): Promise<RepoEntry[]> {
    const file = this.infra.config.stackFilePath;
    if (file === null || !existsSync(file)) return [];
    const parsed = parseStackFile(parse(await readFile(file, 'utf8')) as unknown);
    for (const problem of parsed.problems) this.infra.logger.warn('stack file entry skipped', { problem });
    return parsed.repos;
  }
}
