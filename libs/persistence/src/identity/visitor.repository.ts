import { bulkInsert } from '../bulk';
import { Db } from '../sql';

export interface VisitorEvent {
  visitorHash: string;
  day: string;
  method: string;
  path: string;
  status: number;
}

export class VisitorRepository {
  constructor(private readonly db: Db) {}

  async appendMany(events: VisitorEvent[]): Promise<void> {
    await bulkInsert(this.db, {
      table: 'visitor_event',
      columns: [
        { name: 'visitor_hash', type: 'text' },
        { name: 'day', type: 'date' },
        { name: 'method', type: 'text' },
        { name: 'path', type: 'text' },
        { name: 'status', type: 'int' },
      ],
      rows: events.map((e) => [e.visitorHash, e.day, e.method, e.path, e.status]),
    });
  }
}
