import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/bootstrap';
import { INGESTION_WORKER } from './worker.definition';

runWorkerMain(INGESTION_WORKER);
