import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/bootstrap';
import { EMBEDDING_WORKER } from './worker.definition';

runWorkerMain(EMBEDDING_WORKER);
