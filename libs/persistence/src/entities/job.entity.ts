import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { JobStatus } from '@svc/contracts';

@Entity({ name: 'job' })
@Index('job_created_at_idx', ['createdAt'])
@Index('job_parent_job_id_idx', ['parentJobId'])
export class JobEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') operation!: string;
  @Column('text', { name: 'queue_name' }) queueName!: string;
  @Column('text') status!: JobStatus;
  @Column('jsonb', { default: {} }) payload!: Record<string, unknown>;
  @Column('jsonb', { default: {} }) meta!: Record<string, unknown>;
  @Column('jsonb', { nullable: true }) result!: Record<string, unknown> | null;
  @Column('uuid', { name: 'parent_job_id', nullable: true }) parentJobId!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('int', { name: 'progress_current', nullable: true }) progressCurrent!: number | null;
  @Column('int', { name: 'progress_total', nullable: true }) progressTotal!: number | null;
  @Column('text', { name: 'error_code', nullable: true }) errorCode!: string | null;
  @Column('text', { name: 'error_message', nullable: true }) errorMessage!: string | null;
  @Column('text', { name: 'dedup_key', nullable: true }) dedupKey!: string | null;
  @Column('timestamptz', { name: 'leased_until', nullable: true }) leasedUntil!: Date | null;
  /** How many times the reaper has put this job back on its queue after an expired lease. */
  @Column('int', { name: 'requeue_count', default: 0 }) requeueCount!: number;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('text', { nullable: true }) findings!: string | null;
  @Column('text', { array: true, default: () => "'{}'" }) tags!: string[];
}
