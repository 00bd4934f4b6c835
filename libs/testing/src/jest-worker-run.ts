import { useWorkerRun } from './worker-run';

// A setup file of the integration projects: each Jest worker's test files use the worker's own world.
useWorkerRun();
