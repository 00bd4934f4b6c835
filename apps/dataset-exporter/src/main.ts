import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/jobs';
import { DATASET_EXPORTER } from './worker.definition';

runWorkerMain(DATASET_EXPORTER);
