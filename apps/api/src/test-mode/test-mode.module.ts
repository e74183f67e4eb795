import { Module } from '@nestjs/common';
import { TestModeService } from './test-mode.service';

@Module({ providers: [TestModeService], exports: [TestModeService] })
export class TestModeModule {}
