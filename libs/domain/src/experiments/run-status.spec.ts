import { moveExperimentRun } from './run-status';

describe('moveExperimentRun', () => {
  it.each([
    ['planned', 'running', { stampStarted: true, stampFinished: false }],
    ['running', 'done', { stampStarted: false, stampFinished: true }],
    ['running', 'abandoned', { stampStarted: false, stampFinished: true }],
    ['planned', 'done', { stampStarted: false, stampFinished: true }],
    ['planned', 'abandoned', { stampStarted: false, stampFinished: true }],
    ['running', 'running', { stampStarted: false, stampFinished: false }],
    ['done', 'abandoned', { stampStarted: false, stampFinished: false }],
    ['done', 'running', null],
    ['abandoned', 'planned', null],
    ['running', 'planned', null],
  ] as const)('%s -> %s', (from, to, expected) => {
    const move = moveExperimentRun(from, to);
    if (expected === null) expect(move).toBeNull();
    else expect(move).toEqual({ status: to, ...expected });
  });
});
