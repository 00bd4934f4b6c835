import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/jobs';
import { EMBEDDING_WORKER } from './worker.definition';

runWorkerMain(EMBEDDING_WORKER);
