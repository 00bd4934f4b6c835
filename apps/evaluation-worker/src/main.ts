import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/bootstrap';
import { EVALUATION_WORKER } from './worker.definition';

runWorkerMain(EVALUATION_WORKER);
