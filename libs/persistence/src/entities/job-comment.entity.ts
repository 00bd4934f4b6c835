import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'job_comment' })
@Index('job_comment_job_created_idx', ['jobId', 'createdAt'])
export class JobCommentEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('uuid', { name: 'job_id' }) jobId!: string;
  @Column('text', { nullable: true }) author!: string | null;
  @Column('text') body!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
