import './tracing';
import 'reflect-metadata';
import { runWorkerMain } from '@svc/bootstrap';
import { DATASET_EXPORTER } from './worker.definition';

runWorkerMain(DATASET_EXPORTER);
