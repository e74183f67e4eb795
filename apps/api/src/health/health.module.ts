import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';
import { ShutdownDrain } from './shutdown-drain';

@Module({ controllers: [HealthController], providers: [Readiness, ShutdownDrain], exports: [Readiness] })
export class HealthModule {}
