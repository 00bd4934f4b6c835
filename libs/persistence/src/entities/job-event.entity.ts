import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Append-only record of what happened during a job. */
@Entity({ name: 'job_event' })
@Index('job_event_job_ts_idx', ['jobId', 'ts'])
export class JobEventEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'job_id' }) jobId!: string;
  @Column('timestamptz') ts!: Date;
  @Column('text') level!: string;
  @Column('text') event!: string;
  @Column('text', { nullable: true }) message!: string | null;
  @Column('jsonb', { default: {} }) fields!: Record<string, unknown>;
}
