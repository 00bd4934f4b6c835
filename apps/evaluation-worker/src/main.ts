import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/jobs';
import { EVALUATION_WORKER } from './worker.definition';

runWorkerMain(EVALUATION_WORKER);
