import './tracing';
import 'reflect-metadata';
import { runServiceMain } from '@svc/bootstrap';
import { startAuthService } from './auth-service';

runServiceMain('auth-service', (config) => startAuthService(config));
