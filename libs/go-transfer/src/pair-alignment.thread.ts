import { parentPort } from 'node:worker_threads';
import { alignPair, PairTask } from './pair-alignment';

// A pool thread: aligns the pairs it is sent and answers with their features.
parentPort?.on('message', (tasks: PairTask[]) => {
  parentPort?.postMessage(tasks.map(alignPair));
});
