import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/jobs';
import { INGESTION_WORKER } from './worker.definition';

runWorkerMain(INGESTION_WORKER);
