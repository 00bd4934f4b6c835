import './tracing';
import 'reflect-metadata';
import { runServiceMain } from '@svc/bootstrap';
import { createGateway } from './app.factory';

runServiceMain('gateway-api', (config) => createGateway(config));
