import './tracing';
import 'reflect-metadata';
import { runServiceMain } from '@svc/jobs';
import { startAuthService } from './auth-service';

runServiceMain('auth-service', (config) => startAuthService(config));
