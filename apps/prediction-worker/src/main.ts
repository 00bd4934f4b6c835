import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/bootstrap';
import { PREDICTION_WORKER } from './worker.definition';

runWorkerMain(PREDICTION_WORKER);
