import type { JobStatus } from '@svc/contracts';

/** A job row as the API shows it (snake_case, timestamps as ISO strings). */
export interface JobRecord {
  id: string;
  operation: string;
  queue_name: string;
  status: JobStatus;
  payload: Record<string, unknown>;
  meta: Record<string, unknown>;
  result: Record<string, unknown> | null;
  parent_job_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress_current: number | null;
  progress_total: number | null;
  error_code: string | null;
  error_message: string | null;
  dedup_key: string | null;
  leased_until: string | null;
  requeue_count: number;
  description: string | null;
  findings: string | null;
  tags: string[];
  /** The account the job works for (null: a guest or the service itself). */
  owner_user_id: string | null;
  visibility: 'owner' | 'unlisted' | 'public';
  /** When the retention purge removes an unlisted job (and what it produced). */
  expires_at: string | null;
  /** The role it was submitted with (null for system jobs). */
  submitted_role: string | null;
  submitted_via: 'api' | 'annotate' | 'system';
}

export interface JobEventRecord {
  id: number;
  job_id: string;
  ts: string;
  level: string;
  event: string;
  message: string | null;
  fields: Record<string, unknown>;
}

export interface JobCommentRecord {
  id: number;
  job_id: string;
  author: string | null;
  body: string;
  created_at: string;
}
