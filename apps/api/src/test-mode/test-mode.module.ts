import { Module } from '@nestjs/common';
import { TestIdempotency } from './test-idempotency';
import { TestModeService } from './test-mode.service';

@Module({ providers: [TestModeService, TestIdempotency], exports: [TestModeService, TestIdempotency] })
export class TestModeModule {}
